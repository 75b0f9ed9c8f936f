none = join_all("-")
some = join_all("-", "a", 1, true)
