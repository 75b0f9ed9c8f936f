composite status {
  body = { limits = { cpu = "1", memory = "1Gi" } }
}

composite status {
  body = { limits = { cpu = "2" } }
}
