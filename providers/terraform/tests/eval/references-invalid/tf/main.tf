locals {
  a = var
  b = local
  c = module
  d = data.x
  e = terraform.nope
  f = count.nope
  g = each.nope
  h = self.x
  i = terraform.workspace
  j = path.module
}
