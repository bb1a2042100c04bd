import os

GITHUB_TOKEN = "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"
FALLBACK = "ghp_Eeeby3abP3E2Zs8IQ9Y7aJZqhB6baeCN6Zj4"
DB_URL = os.environ.get("DB_URL")
db_password = os.environ.get("DB_PASSWORD", "")
