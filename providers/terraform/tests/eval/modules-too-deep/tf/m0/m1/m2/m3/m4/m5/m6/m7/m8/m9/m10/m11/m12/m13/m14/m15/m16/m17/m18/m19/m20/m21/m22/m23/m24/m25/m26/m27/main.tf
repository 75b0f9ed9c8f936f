module "m28" {
  source = "./m28"
}
