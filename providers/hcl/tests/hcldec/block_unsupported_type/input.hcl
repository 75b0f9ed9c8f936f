servers {
}
