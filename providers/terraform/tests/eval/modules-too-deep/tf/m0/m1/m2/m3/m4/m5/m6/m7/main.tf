module "m8" {
  source = "./m8"
}
