a = "tfvars"
b = "tfvars"
c = "tfvars"
d = "tfvars"
