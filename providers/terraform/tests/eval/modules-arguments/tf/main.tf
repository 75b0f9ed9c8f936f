module "m" {
  source = "./m"
  nope   = 1
  nmae   = "x"
}
