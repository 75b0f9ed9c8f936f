locals {
  a = local.b
  b = "${local.c}-x"
  c = upper(local.a)
  d = "fine"
}
