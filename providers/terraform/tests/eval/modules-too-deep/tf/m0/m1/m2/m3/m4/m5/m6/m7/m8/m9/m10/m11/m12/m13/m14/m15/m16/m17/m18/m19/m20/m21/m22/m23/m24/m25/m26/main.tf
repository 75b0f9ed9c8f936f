module "m27" {
  source = "./m27"
}
