variable "nonnull" {
  type     = string
  default  = "fallback"
  nullable = false
}
variable "nullok" {
  type    = string
  default = "fallback"
}
resource "aws_s3_bucket" "b" {
  a = var.nonnull
  b = var.nullok == null ? "is-null" : var.nullok
}
