module "left" {
  source = "../a4"
}
module "right" {
  source = "../a4"
}
