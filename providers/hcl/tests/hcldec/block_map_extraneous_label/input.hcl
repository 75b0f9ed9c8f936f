service "a" "b" {
}
