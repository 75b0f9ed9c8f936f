composite connection {
  body = {
    user     = "YWRtaW4="
    password = "hunter2 is plain"
  }
}

composite connection {
  body = {
    host = "ZGI="
  }
}
