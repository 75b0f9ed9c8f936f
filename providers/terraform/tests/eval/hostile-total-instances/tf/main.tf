module "m" {
  source = "./m"
  count  = 100
}
