service "http" "web" {
  port = 80
}
service "http" "api" {
  port = 8080
}
service "tcp" "db" {
  port = 5432
}
