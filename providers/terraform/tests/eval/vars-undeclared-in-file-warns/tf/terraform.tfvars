a = "y"
nope = 1
