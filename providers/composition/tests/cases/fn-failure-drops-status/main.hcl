function parse {
  arg text {}
  body = tonumber(text)
}

composite status {
  body = { port = invoke("parse", { text = "eighty" }) }
}

composite status {
  body = { other = invoke("parse", { text = "80" }) }
}
