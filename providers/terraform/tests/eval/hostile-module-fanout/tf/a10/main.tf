module "left" {
  source = "../a11"
}
module "right" {
  source = "../a11"
}
