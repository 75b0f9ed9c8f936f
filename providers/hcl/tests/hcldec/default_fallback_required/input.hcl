primary = 1
