composite connection {
  body = { url = base64encode("http://a") }
}

composite connection {
  body = { url = base64encode("http://b") }
}
