module "net" {
  source = "./m"
}
