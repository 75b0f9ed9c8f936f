composite status {
  body = { owner = { team = "a" } }
}

composite status {
  body = { owner = "team-a" }
}
