locals {
  x = 
}
