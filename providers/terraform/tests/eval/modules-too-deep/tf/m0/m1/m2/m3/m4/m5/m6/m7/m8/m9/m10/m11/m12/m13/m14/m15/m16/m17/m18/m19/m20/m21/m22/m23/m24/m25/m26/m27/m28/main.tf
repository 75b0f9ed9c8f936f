module "m29" {
  source = "./m29"
}
