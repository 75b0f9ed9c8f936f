variable "n" {
  type = number
}
variable "names" {
  type = set(string)
}
resource "aws_instance" "web" {
  count         = var.n
  ami           = "ami-123"
  instance_type = "t3.micro"
  tags = {
    Name = "web-${count.index}"
  }
}
resource "aws_s3_bucket" "b" {
  for_each = var.names
  bucket   = each.key
  acl      = "private"
}
resource "aws_s3_bucket" "by_id" {
  for_each = toset([aws_instance.web[0].id])
  bucket   = "x"
}
resource "aws_s3_bucket" "by_id_key" {
  for_each = { (aws_s3_bucket.b["a"].arn) = 1 }
  bucket   = "y"
}
resource "aws_s3_bucket" "unknown_values_are_fine" {
  for_each = { a = aws_instance.web[0].id }
  bucket   = each.key
  tags = {
    id = each.value
  }
}
