composite connection {
  body = {
    k = 5432
  }
}
