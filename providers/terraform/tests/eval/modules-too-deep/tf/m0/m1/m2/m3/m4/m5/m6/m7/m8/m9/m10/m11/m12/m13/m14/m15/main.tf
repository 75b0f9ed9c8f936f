module "m16" {
  source = "./m16"
}
