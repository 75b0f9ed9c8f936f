module "m19" {
  source = "./m19"
}
