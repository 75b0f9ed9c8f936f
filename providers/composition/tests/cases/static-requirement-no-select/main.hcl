requirement cfg {
  condition = false
}
