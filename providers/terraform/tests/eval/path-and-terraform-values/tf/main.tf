module "m" {
  source = "./modules/../modules/m"
}
resource "aws_s3_object" "o" {
  root      = path.root
  module    = path.module
  cwd_abs   = startswith(path.cwd, "/")
  workspace = terraform.workspace
  applying  = terraform.applying
}
