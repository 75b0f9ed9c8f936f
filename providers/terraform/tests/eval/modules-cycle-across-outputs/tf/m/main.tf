variable "input" {}
output "echo" {
  value = var.input
}
