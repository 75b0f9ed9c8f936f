composite status {
  body = {
    url = req.resource.db.status.url
  }
}

composite status {
  body = {
    ok = true
  }
}
