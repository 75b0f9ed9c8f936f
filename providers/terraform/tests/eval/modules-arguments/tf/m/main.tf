variable "name" {}
variable "opt" {
  default = null
}
