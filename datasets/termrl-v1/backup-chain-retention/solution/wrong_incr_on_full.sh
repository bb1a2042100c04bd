#!/bin/bash
# Mistake: an incremental is treated like a differential (based on the latest full), so the
# incrementals and differentials between them are deleted although the restore needs them.
set -euo pipefail
sed 's/                if b\["type"\] == "incr" or prev\["type"\] == "full":/                if prev["type"] == "full":/' /solution/prune.py > /app/prune-backups
chmod +x /app/prune-backups
/app/prune-backups /srv/backups --keep-last 3 --keep-full 1
