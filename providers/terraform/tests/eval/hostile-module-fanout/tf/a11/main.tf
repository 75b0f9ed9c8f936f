module "left" {
  source = "../a12"
}
module "right" {
  source = "../a12"
}
