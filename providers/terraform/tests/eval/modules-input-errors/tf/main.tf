module "m" {
  source = "./m"
  n      = "abc"
  o      = { a = "x" }
  nn     = null
}
