module "m11" {
  source = "./m11"
}
