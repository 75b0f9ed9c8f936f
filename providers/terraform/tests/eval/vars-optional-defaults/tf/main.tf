variable "x" {
  type = object({
    a = optional(string, "da")
    inner = optional(object({
      b = optional(number, 7)
      c = optional(string)
    }))
    inner2 = optional(object({
      b = optional(number, 7)
    }), {})
    l = optional(list(object({ z = optional(bool, true), w = string })), [])
  })
  default = { l = [{ w = "1" }, { w = "2", z = false }] }
}
variable "m" {
  type    = map(object({ a = optional(string, "da") }))
  default = { k = {}, j = { a = null } }
}
variable "n" {
  type    = object({ a = optional(string, "da") })
  default = null
}
variable "given" {
  type = object({ a = optional(string, "da"), b = string })
}
resource "aws_s3_bucket" "b" {
  x     = var.x
  m     = var.m
  n     = var.n == null ? "null" : "not null"
  given = var.given
}
