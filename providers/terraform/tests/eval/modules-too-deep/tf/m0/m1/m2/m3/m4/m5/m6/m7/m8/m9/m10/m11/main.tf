module "m12" {
  source = "./m12"
}
