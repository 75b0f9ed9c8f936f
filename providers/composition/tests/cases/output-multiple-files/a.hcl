locals {
  fromA = "a"
}
