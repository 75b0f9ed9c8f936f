context {
  key   = req.composite.spec.contextKey
  value = "x"
}
