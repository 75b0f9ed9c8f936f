resource "aws_s3_object" "o" {
  content   = file("${path.module}/files/hello.txt")
  b64       = filebase64("files/hello.txt")
  md5       = filemd5("files/hello.txt")
  sha1      = filesha1("files/hello.txt")
  sha256    = filesha256("files/hello.txt")
  sha512    = filesha512("files/hello.txt")
  b64sha256 = filebase64sha256("files/hello.txt")
  b64sha512 = filebase64sha512("files/hello.txt")
  exists    = fileexists("files/hello.txt")
  missing   = fileexists("files/nope.txt")
  set       = fileset(path.module, "files/**/*.txt")
  set_braces = fileset("files", "{hello,other}.txt")
  rendered  = templatefile("${path.module}/files/t.tftpl", { name = "world", items = ["a", "b"] })
  base      = basename("files/hello.txt")
  dir       = dirname("files/hello.txt")
  abs_ok    = abspath("files") == "${path.cwd}/files"
}
module "m" {
  source = "./m"
}
