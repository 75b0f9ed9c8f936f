locals {
  a = aws_x.y.id
  b = module.q.o
}
