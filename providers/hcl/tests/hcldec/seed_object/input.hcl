name = "Ermintrude"
address {
  street = "1 Main St"
}
