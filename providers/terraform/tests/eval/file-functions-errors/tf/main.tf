resource "aws_s3_object" "o" {
  a = file("nope.txt")
  b = templatefile("t.tftpl", {})
  c = templatefile("t.tftpl", { "not valid" = 1, name = "x" })
  d = fileexists(".")
  e = file("t.tftpl") == "" ? 1 : file(".")
  f = templatefile("t.tftpl", 1)
  g = pathexpand("~someone/x")
}
