locals {
  full   = "${local.prefix}-${local.suffix}"
  suffix = upper(local.env)
}
