module "left" {
  source = "../a13"
}
module "right" {
  source = "../a13"
}
