num_from_string  = "1e3"
string_from_bool = false
list_from_tuple  = [1, "2", 3.5]
set_from_tuple   = ["b", "a", "b"]
map_from_object  = { x = 1, y = true }
list_of_objects  = [{ a = 1, b = 2 }, { a = "z" }]
null_keeps_type  = null
big              = 123456789012345678901234567890.000000000000000000001
