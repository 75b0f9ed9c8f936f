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
}
