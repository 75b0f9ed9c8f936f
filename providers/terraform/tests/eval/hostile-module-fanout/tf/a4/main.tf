module "left" {
  source = "../a5"
}
module "right" {
  source = "../a5"
}
