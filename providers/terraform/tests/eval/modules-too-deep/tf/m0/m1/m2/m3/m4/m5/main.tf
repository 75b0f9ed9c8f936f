module "m6" {
  source = "./m6"
}
