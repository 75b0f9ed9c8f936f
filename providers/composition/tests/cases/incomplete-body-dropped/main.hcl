resource subnet {
  body = {
    apiVersion = "ec2.aws.upbound.io/v1beta1"
    kind       = "Subnet"
    spec = {
      forProvider = {
        vpcId = req.composite.status.vpcId
      }
    }
  }

  composite status {
    body = { subnet = "requested" }
  }

  ready {
    value = "READY_TRUE"
  }

  context {
    key   = "example.com/subnet"
    value = "x"
  }
}
