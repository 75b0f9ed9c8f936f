module "m18" {
  source = "./m18"
}
