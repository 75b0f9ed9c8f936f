module "m23" {
  source = "./m23"
}
