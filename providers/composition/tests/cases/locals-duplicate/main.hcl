locals {
  x = 1
}

locals {
  x = 2
}
