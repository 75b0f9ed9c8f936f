log_file {
  level    = "info"
  filename = "b.log"
}
log_file {
  filename = "a.log"
}
log_file {
  level    = "info"
  filename = "b.log"
}
