#!/bin/bash
set -euo pipefail
cp /solution/prune.py /app/prune-backups
chmod +x /app/prune-backups
/app/prune-backups /srv/backups --keep-last 3 --keep-full 1
