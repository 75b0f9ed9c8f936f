locals {
  other = req.composite.spec.third
}
