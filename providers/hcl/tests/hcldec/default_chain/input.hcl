secondary = "second"
