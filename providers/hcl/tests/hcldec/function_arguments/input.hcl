few  = pair(1)
many = pair(1, 2, 3)
