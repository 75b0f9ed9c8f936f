server {
  name = "a"
}
server {
  name = "b"
}
