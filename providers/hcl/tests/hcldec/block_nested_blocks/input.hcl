server {
  name = "web"
  listener {
    port = 80
  }
  listener {
    port = 443
  }
}
