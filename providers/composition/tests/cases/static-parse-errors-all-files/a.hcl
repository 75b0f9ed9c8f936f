resource foo {
