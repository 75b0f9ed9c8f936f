module "left" {
  source = "../a8"
}
module "right" {
  source = "../a8"
}
