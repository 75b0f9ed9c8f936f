module "left" {
  source = "../a14"
}
module "right" {
  source = "../a14"
}
