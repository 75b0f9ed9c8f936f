rule {
  port = 1
}
rule {
  port = 2
}
