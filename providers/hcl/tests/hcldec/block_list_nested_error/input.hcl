rule {
  port = 1
}
rule {
}
