locals {
  ok = "fine"
}
