name = "Hcldec"
