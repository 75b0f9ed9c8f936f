# A module repository's example: the module is above the root module's directory, inside
# the tree (--terraform-root) but outside --terraform.
module "bucket" {
  source = "../modules/bucket"
  name   = "example"
}

resource "aws_s3_object" "readme" {
  bucket  = module.bucket.id
  key     = "README"
  content = file("../README.txt")
  root    = path.root
}
