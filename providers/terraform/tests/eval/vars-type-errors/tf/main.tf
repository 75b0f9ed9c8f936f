variable "n" {
  type = number
}
variable "o" {
  type = object({ a = number })
}
variable "e" {
  type = bool
}
variable "nn" {
  type     = string
  nullable = false
}
