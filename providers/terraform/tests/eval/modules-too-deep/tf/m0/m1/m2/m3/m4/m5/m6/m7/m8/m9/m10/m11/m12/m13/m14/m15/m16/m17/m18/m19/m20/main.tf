module "m21" {
  source = "./m21"
}
