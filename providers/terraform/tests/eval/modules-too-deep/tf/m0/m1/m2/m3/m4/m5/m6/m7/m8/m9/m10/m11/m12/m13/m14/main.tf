module "m15" {
  source = "./m15"
}
