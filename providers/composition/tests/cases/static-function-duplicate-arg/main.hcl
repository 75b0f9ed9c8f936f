function f {
  arg a {}
  arg a {}
  body = a
}
