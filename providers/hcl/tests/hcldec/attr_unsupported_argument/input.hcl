name  = "x"
namme = "y"
