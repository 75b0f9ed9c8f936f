resources B {
  for_each = ["a"]
}
