d_auto = "d-auto-a"
