context {
  key = "example.com/foo-bar-baz"
  value = {
    foo = { bar = "baz" }
    bar = 10
    baz = "quux"
  }
}

context {
  key = "example.com/foo-bar-baz"
  value = {
    foo = { baz = "bar" }
    bar = 10
  }
}

context {
  key   = "example.com/other"
  value = [1, "two"]
}
