module "m10" {
  source = "./m10"
}
