variables {
  region = "eu-west-1"
  count  = 3
}
