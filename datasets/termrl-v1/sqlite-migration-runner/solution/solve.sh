#!/bin/bash
set -euo pipefail
install -m 755 /solution/migrate.py /app/migrate.py
rm -f /tmp/example.db
python3 /app/migrate.py /tmp/example.db /app/migrations
