variable "n" {
  type = number
}
module "m" {
  source = "./m"
  count  = var.n
  name   = "n-${count.index}"
}
