c_tfvars = "c-tfvars-win"
d_auto   = "d-tfvars"
