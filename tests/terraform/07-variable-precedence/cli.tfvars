e_var_last  = "e-file"
f_file_last = "f-file-win"
