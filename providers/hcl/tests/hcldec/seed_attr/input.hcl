document_root = "/var/www"
