module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.0.0"
  name    = "main"
}
resource "aws_flow_log" "f" {
  vpc_id = module.vpc.vpc_id
}
