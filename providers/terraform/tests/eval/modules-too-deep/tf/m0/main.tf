module "m1" {
  source = "./m1"
}
