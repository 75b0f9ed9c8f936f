x = "ignored"
