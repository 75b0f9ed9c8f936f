module "left" {
  source = "../a1"
}
module "right" {
  source = "../a1"
}
