provider "aws" {
  region = "eu-west-1"
}

resource "aws_ebs_volume" "data" {
  availability_zone = "eu-west-1a"
  size              = 100
}

resource "aws_ebs_snapshot" "data" {
  volume_id   = aws_ebs_volume.data.id
  description = "nightly"
  tags = {
    Name = "data"
  }
}

resource "aws_snapshot_create_volume_permission" "backup_account" {
  snapshot_id = aws_ebs_snapshot.data.id
  account_id  = "210987654321"
}

# No mapping file: loaded raw only, with a warning.
resource "random_id" "suffix" {
  byte_length = 4
}
