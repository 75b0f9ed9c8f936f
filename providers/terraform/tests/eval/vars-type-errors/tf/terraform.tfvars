o = { a = "x" }
nn = null
