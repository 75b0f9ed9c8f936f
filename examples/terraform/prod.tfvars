environment = "production"
region      = "eu-west-1"
