function f {
  description = lower("ADDS")
  arg a {
    description = lower("A")
  }
  body = a
}
