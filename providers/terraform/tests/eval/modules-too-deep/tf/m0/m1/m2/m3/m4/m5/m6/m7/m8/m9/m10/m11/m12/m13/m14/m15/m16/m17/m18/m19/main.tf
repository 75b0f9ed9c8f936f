module "m20" {
  source = "./m20"
}
