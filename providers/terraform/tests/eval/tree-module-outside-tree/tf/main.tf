# The tree is the case folder: the folder of every case, above it, is outside the tree.
module "m" {
  source = "../.."
}
