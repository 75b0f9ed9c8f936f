any   = [1, "two"]
str   = 5
num   = "6.5"
flag  = "true"
list  = ["a", 1, true]
set   = [3, 1, 3, 2]
map   = { a = true, b = "false" }
obj   = { name = "web", port = "80", extra = "dropped" }
tuple = ["x", "1", "false"]
