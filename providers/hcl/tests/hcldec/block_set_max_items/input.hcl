rule {
}
rule {
}
