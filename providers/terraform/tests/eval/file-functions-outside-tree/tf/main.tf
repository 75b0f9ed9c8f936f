resource "aws_s3_object" "o" {
  secret   = file("/etc/passwd")
  up       = file("../vars.json")
  exists   = fileexists("/etc/hostname")
  set      = fileset("..", "*")
  template = templatefile("/etc/hosts", {})
  home     = file("~/.aws/credentials")
  inside   = "still known"
}
