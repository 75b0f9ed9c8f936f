size_in_mb = 3
