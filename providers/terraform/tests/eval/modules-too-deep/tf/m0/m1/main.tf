module "m2" {
  source = "./m2"
}
