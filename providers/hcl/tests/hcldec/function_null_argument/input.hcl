v = id(null)
