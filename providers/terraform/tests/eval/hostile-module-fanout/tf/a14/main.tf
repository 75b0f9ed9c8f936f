module "left" {
  source = "../a15"
}
module "right" {
  source = "../a15"
}
