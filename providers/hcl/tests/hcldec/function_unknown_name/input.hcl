x = lower("A")
