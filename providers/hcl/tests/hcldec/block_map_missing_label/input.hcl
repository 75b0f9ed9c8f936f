service "http" {
}
