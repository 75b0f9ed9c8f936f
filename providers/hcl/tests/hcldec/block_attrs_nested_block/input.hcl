env {
  a = "1"
  nested {
  }
}
