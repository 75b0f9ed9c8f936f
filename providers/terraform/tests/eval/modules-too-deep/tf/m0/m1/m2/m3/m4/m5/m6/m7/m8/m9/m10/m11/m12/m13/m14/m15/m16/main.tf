module "m17" {
  source = "./m17"
}
