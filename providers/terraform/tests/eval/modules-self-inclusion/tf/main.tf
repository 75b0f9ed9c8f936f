module "again" {
  source = "./"
}
