sum  = 1 + 2 * three
cond = 1 < 2 ? "yes" : "no"
for  = [for s in ["a", "b"] : "${s}!"]
tmpl = <<EOT
Hello %{ if true }world%{ endif }
EOT
