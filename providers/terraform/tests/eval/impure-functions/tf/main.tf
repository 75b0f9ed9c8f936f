resource "aws_s3_object" "o" {
  when    = timestamp()
  plan    = plantimestamp()
  id      = uuid()
  hash    = bcrypt("secret")
  derived = "at-${timestamp()}"
  pure    = uuidv5("dns", "example.com")
  ws      = terraform.workspace
}
resource "aws_instance" "i" {
  ami = "ami-1"
}
resource "aws_s3_object" "computed_argument" {
  content = templatefile("${path.module}/t.tftpl", { ip = aws_instance.i.private_ip })
}
