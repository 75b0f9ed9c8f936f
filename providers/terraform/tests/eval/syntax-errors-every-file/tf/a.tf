locals {
  a = 
}
