tag {
  value = "b"
}
tag {
  value = "a"
}
tag {
  value = "b"
}
