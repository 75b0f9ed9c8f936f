rule {
}
