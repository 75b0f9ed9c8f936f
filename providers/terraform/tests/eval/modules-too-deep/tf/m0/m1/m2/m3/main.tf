module "m4" {
  source = "./m4"
}
