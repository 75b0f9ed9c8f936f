variable "parent" {}
resource "aws_route_table" "rt" {
  vpc_id = var.parent
  note   = path.module
}
