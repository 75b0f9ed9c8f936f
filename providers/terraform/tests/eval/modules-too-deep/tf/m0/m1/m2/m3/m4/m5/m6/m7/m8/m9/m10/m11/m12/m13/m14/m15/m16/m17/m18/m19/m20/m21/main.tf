module "m22" {
  source = "./m22"
}
