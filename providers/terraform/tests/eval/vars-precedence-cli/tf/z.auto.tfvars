a = "auto"
b = "auto"
