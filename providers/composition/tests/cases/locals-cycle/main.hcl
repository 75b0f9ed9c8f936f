locals {
  a = "${b}x"
  b = a
}
