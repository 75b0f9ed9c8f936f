# Every VPC comes with a default security group and network ACL with AWS's rules (IPv6
# ones too when the VPC has an IPv6 block); aws_default_security_group and
# aws_default_network_acl naming a VPC stand for them instead.
resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_vpc" "b" {
  cidr_block                       = "10.1.0.0/16"
  assign_generated_ipv6_cidr_block = true
}
resource "aws_default_security_group" "b" {
  vpc_id = aws_vpc.b.id
}
resource "aws_default_network_acl" "b" {
  default_network_acl_id = aws_vpc.b.default_network_acl_id
}
