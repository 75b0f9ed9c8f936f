module "m33" {
  source = "./m33"
}
