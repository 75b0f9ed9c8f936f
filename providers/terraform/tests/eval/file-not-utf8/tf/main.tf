locals {
  a = "ÿ"
}
