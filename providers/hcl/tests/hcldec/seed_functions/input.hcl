a = add_one(41)
b = upper("shout")
c = min(5, 2, 9)
