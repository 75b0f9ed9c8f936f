ephemeral "aws_secretsmanager_secret_version" "db" {
  secret_id = "db-password"
}
resource "aws_db_instance" "db" {
  engine              = "postgres"
  password_wo         = ephemeral.aws_secretsmanager_secret_version.db.secret_string
  storage_encrypted   = true
}
