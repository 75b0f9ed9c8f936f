variable "zones" {
  type = list(string)
}

resource "aws_ebs_volume" "unset" {
  availability_zone = "eu-west-1a"
  size              = 10
}

resource "aws_ebs_volume" "set" {
  availability_zone = "eu-west-1a"
  size              = 10
  encrypted         = true
}

# count over a variable without a value: one instance aws_subnet.per_zone[*], unknown.
resource "aws_subnet" "per_zone" {
  count             = length(var.zones)
  vpc_id            = "vpc-0abc"
  cidr_block        = "10.0.${count.index}.0/24"
  availability_zone = var.zones[count.index]
}
