resource fine {
  body = {}
}
