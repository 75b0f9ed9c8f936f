log_file "a.log" {
  level = "info"
}
log_file "b.log" {
  level = "debug"
}
