x = name
