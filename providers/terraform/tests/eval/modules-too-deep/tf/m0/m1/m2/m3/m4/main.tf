module "m5" {
  source = "./m5"
}
