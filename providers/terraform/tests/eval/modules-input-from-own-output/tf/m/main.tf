variable "input" {}
output "constant" {
  value = "fixed"
}
output "echo" {
  value = "got-${var.input}"
}
