module "b" {
  source = "../b"
}
