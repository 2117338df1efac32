import secrets
secrets.choice([])
