module "m25" {
  source = "./m25"
}
