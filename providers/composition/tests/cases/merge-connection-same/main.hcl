composite connection {
  body = { url = base64encode("http://a") }
}

composite connection {
  body = { url = "aHR0cDovL2E=" }
}
