module "left" {
  source = "../a6"
}
module "right" {
  source = "../a6"
}
