context {
  key   = "example.com/url"
  value = req.resource.db.status.url
}

context {
  key   = "example.com/fine"
  value = "yes"
}
