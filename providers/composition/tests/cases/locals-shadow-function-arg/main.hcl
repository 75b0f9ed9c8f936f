function f {
  arg a {}
  locals {
    a = 2
  }
  body = a
}
