server "web" {
}
