module "m31" {
  source = "./m31"
}
