resource r {
}
