resource r {
}

resources B {
  for_each = ["a"]
}

group {
  bogus = 1
}
