module "x" {
  source = "./a0"
}
