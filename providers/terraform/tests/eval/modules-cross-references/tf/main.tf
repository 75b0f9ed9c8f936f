module "a" {
  source = "./m"
  input  = module.b.constant
}
module "b" {
  source = "./m"
  input  = module.a.constant
}
resource "aws_s3_bucket" "x" {
  bucket = module.a.echo
  tags = {
    b = module.b.echo
  }
}
