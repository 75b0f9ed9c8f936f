resource "aws_security_group" "a" {
  name = aws_security_group.b.name
}
resource "aws_security_group" "b" {
  description = aws_security_group.a.arn
}
