a = "first-file"
b = "first-file"
