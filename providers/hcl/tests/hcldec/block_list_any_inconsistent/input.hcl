item {
  v = [1]
}
item {
  v = "two"
}
