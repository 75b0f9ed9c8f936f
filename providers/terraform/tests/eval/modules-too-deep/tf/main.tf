module "m0" {
  source = "./m0"
}
