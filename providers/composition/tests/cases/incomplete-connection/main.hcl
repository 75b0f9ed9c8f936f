composite connection {
  body = {
    url = base64encode(req.resource.db.status.url)
  }
}
