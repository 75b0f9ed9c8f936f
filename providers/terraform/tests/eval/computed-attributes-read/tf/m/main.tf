variable "vpc" {
  type = object({
    id                   = string
    cidr_block           = string
    enable_dns_hostnames = bool
  })
}
resource "aws_subnet" "s" {
  vpc_id     = var.vpc.id
  cidr_block = cidrsubnet(var.vpc.cidr_block, 8, 1)
  dns        = var.vpc.enable_dns_hostnames
}
