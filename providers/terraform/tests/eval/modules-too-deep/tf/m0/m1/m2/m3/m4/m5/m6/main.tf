module "m7" {
  source = "./m7"
}
