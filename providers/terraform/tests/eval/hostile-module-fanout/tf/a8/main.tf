module "left" {
  source = "../a9"
}
module "right" {
  source = "../a9"
}
