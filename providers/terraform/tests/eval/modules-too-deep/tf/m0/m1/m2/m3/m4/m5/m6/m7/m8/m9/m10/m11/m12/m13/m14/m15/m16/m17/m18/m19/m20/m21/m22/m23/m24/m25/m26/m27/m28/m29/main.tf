module "m30" {
  source = "./m30"
}
