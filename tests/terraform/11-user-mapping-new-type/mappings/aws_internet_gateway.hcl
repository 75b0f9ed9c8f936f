# aws_internet_gateway -> aws:ec2:internet_gateway (DescribeInternetGateways).
type = "aws:ec2:internet_gateway"

object {
  literal "internet_gateway_id" {
    value = self.address
  }
  transform "attachments" {
    attr {
      name = "vpc_id"
      type = string
    }
    result = nested != null ? [{
      vpc_id = id(nested)
      vpc    = ref("aws:ec2:vpc", nested)
      state  = "available"
    }] : []
  }
  unknown "owner_id" {
    not_null = true
  }
  transform "tags" {
    attr {
      type = map(string)
    }
    result = merge(self.default_tags, nested)
  }
}
