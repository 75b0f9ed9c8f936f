env {
  a = "1"
}
env {
  b = "2"
}
