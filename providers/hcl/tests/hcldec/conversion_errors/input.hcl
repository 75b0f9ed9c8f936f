num  = "ten"
flag = "yes"
list = [1, "x"]
obj  = { a = "v" }
str  = ["a"]
