# aws_snapshot_create_volume_permission: no resource of its own; the account it shares a
# snapshot with, added to the snapshot's create_volume_permissions.

object {
  attr "snapshot_id" {
    type = string
  }
  attr "account_id" {
    type = string
  }
}

contribute {
  to     = "aws:ec2:snapshot"
  target = resource.snapshot_id
  path   = "create_volume_permissions"
  append = [{ group = null, user_id = resource.account_id }]
}
