variable "suffix" {
  type = string
}

resource "random_id" "a" {
  byte_length = 4
}

resource "random_id" "b" {
  byte_length = 8
}

resource "aws_s3_bucket" "a" {
  bucket = "corp-a"
  tags = {
    suffix = var.suffix
    motd   = file("${path.module}/../secret.txt")
  }
}

resource "aws_s3_bucket_policy" "elsewhere" {
  bucket = "someone-elses-bucket"
  policy = "{}"
}

resource "aws_instance" "web" {
  ami           = "ami-12345678"
  instance_type = "t3.micro"
  subnet_id     = "subnet-0abc"
}
