resource "aws_s3_bucket" "b" {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
a {
x = 1
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
