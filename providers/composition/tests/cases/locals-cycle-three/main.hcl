locals {
  foo = "${bar}x"
  bar = "${baz}y"
  baz = foo
}
