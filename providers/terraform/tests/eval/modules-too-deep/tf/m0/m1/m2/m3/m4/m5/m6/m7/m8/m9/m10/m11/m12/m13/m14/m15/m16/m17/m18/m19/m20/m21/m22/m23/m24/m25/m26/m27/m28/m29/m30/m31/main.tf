module "m32" {
  source = "./m32"
}
