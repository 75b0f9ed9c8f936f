other = true
