module "missing" {
  source = "./does-not-exist"
}
module "no_source" {
  x = 1
}
module "not_literal" {
  source = "./${var.x}"
}
variable "x" {
  default = "m"
}
