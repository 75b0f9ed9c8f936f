context {
  key   = "example.com/a"
  value = { z = 3 }
}

context {
  key   = "example.com/new"
  value = req.context["example.com/a"].x
}
