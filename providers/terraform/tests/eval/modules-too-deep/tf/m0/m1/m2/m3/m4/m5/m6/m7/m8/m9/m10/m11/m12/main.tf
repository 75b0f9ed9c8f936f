module "m13" {
  source = "./m13"
}
