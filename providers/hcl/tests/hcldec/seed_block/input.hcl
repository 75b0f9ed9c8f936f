logging {
  level = "debug"
  file  = "/var/log/app.log"
}
