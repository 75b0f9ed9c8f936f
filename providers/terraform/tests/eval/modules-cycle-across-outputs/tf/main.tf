module "a" {
  source = "./m"
  input  = module.b.echo
}
module "b" {
  source = "./m"
  input  = module.a.echo
}
