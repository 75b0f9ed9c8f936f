d = "b.auto.tfvars"
