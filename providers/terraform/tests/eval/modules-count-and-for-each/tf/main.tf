module "by_count" {
  source = "./m"
  count  = 2
  name   = "c${count.index}"
}
module "by_each" {
  source   = "./m"
  for_each = { x = "10.0.0.0/16", y = "10.1.0.0/16" }
  name     = each.key
  cidr     = each.value
}
resource "aws_s3_bucket" "b" {
  bucket = module.by_count[1].name_out
  tags = {
    x   = module.by_each["x"].name_out
    ids = join(",", [for k, m in module.by_each : m.vpc_id])
    n   = length(module.by_count)
  }
}
