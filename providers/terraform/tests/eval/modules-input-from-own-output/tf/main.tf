module "a" {
  source = "./m"
  input  = module.a.constant
}
resource "aws_s3_bucket" "b" {
  bucket = module.a.echo
}
