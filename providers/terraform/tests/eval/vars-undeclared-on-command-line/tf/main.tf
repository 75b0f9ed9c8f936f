variable "a" {
  default = "x"
}
