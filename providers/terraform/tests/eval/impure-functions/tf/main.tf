resource "aws_s3_object" "o" {
  when    = timestamp()
  plan    = plantimestamp()
  id      = uuid()
  hash    = bcrypt("secret")
  derived = "at-${timestamp()}"
  pure    = uuidv5("dns", "example.com")
  ws      = terraform.workspace
}
