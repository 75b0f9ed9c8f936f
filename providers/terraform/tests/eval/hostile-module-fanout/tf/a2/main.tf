module "left" {
  source = "../a3"
}
module "right" {
  source = "../a3"
}
