module "m9" {
  source = "./m9"
}
