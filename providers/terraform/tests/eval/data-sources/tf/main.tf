data "aws_ami" "ubuntu" {
  most_recent = true
  owners      = ["099720109477"]
}
data "aws_caller_identity" "me" {}
resource "aws_instance" "web" {
  ami           = data.aws_ami.ubuntu.id
  instance_type = "t3.micro"
  tags = {
    Owners  = join(",", data.aws_ami.ubuntu.owners)
    Account = data.aws_caller_identity.me.account_id
    Arn     = data.aws_ami.ubuntu.arn
  }
}
