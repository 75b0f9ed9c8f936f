function f {
  arg a {}
  locals {
    name = req.composite.metadata.name
  }
  body = "${a}-${name}"
}
