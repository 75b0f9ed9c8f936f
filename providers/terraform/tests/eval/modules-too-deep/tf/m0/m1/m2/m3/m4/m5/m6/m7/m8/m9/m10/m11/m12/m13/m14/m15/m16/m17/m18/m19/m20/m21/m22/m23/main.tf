module "m24" {
  source = "./m24"
}
