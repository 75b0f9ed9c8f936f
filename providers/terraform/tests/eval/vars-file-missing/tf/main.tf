variable "a" {
  default = 1
}
