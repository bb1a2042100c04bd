#!/bin/bash
set -euo pipefail
cp /solution/prune.py /app/prune.py
python3 /app/prune.py /backups/db --now 2025-03-15T12:00:00 | grep -c '^keep'
