variable "n" { type = number }
variable "o" { type = object({ a = number }) }
variable "nn" {
  type = string
  nullable = false
}
output "x" { value = var.n }
