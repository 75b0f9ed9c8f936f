module "network" {
  source = "./modules/network"
  cidr   = "10.1.0.0/16"
  name   = "prod"
}
resource "aws_flow_log" "vpc" {
  vpc_id       = module.network.vpc_id
  traffic_type = "ALL"
  tags = {
    Cidr  = module.network.cidr
    Where = module.network.where
  }
}
output "subnets" {
  value = module.network.subnet_ids
}
