x = nmae
