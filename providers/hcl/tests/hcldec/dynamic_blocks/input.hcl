dynamic "rule" {
  for_each = [80, 443]
  content {
    port  = rule.value
    proto = "tcp"
  }
}
rule {
  port  = 22
  proto = "ssh"
}
