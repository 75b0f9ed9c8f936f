module "m14" {
  source = "./m14"
}
