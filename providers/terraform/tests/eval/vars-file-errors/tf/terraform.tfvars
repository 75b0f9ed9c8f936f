a = 
b {
}
