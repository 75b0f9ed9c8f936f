module "left" {
  source = "../a10"
}
module "right" {
  source = "../a10"
}
