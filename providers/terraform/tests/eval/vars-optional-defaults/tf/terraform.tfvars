given = { b = "set" }
