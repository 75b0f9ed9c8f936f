module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
  name   = "main"
}
resource "aws_flow_log" "f" {
  vpc_id = module.vpc.vpc_id
  note   = module.vpc.anything.at.all
}
