d_auto     = "d-auto-b-win"
not_a_var = "x"
