private = "true"
