module "m26" {
  source = "./m26"
}
