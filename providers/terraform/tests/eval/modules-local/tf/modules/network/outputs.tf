output "vpc_id" {
  value = aws_vpc.this.id
}
output "cidr" {
  value = aws_vpc.this.cidr_block
}
output "subnet_ids" {
  value = aws_subnet.this[*].id
}
output "where" {
  value = "${path.module} in ${path.root}"
}
