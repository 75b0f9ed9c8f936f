# The Terraform half of the bundled example: the code of a small production stack, judged
# before apply by the same spec that judges the account after it:
#
#   cloudspec run examples/prod.cloudspec --terraform examples/terraform
#
# Nothing is executed: no provider, no network, no state (docs/terraform.md).

terraform {
  required_version = ">= 1.5"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

provider "aws" {
  region = var.region

  default_tags {
    tags = {
      environment = var.environment
      owner       = "platform"
    }
  }
}
