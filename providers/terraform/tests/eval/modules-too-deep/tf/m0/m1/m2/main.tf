module "m3" {
  source = "./m3"
}
