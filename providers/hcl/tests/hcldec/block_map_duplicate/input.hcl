service "web" {
  port = 1
}
service "web" {
  port = 2
}
