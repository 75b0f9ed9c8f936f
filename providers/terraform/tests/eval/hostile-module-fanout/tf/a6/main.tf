module "left" {
  source = "../a7"
}
module "right" {
  source = "../a7"
}
