module "left" {
  source = "../a2"
}
module "right" {
  source = "../a2"
}
