resource "azurerm_storage_account" "good" {
  name                     = "corpgood"
  resource_group_name      = "rg"
  location                 = "westeurope"
  account_tier             = "Standard"
  account_replication_type = "LRS"
  min_tls_version          = "TLS1_2"
}

resource "azurerm_storage_account" "old" {
  name                     = "corpold"
  resource_group_name      = "rg"
  location                 = "westeurope"
  account_tier             = "Standard"
  account_replication_type = "LRS"
  min_tls_version          = "TLS1_0"
}

resource "google_storage_bucket" "logs" {
  name                     = "corp-logs"
  location                 = "EU"
  public_access_prevention = "enforced"
  versioning {
    enabled = true
  }
}

resource "google_storage_bucket" "open" {
  name     = "corp-open"
  location = "EU"
}

resource "aws_s3_bucket" "data" {
  bucket = "corp-data"
  tags = {
    team = "data"
  }
}

resource "aws_s3_bucket" "scratch" {
  bucket = "scratch"
}
