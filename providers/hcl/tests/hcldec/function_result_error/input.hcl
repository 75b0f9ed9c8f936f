v = bad(1)
