module "out" {
  source = "../../modules-local/tf/modules/shared"
  parent = "x"
}
