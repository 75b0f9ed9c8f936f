locals {
  a = "${b}-suffix"
}
