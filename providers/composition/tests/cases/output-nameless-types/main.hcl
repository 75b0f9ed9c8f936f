composite status {
  body = { url = req.composite.spec.url }
}

composite connection {
  body = { url = req.composite.spec.url }
}

context {
  key   = "example.com/url"
  value = req.composite.spec.url
}

group {
  condition = req.composite.spec.enabled
}
