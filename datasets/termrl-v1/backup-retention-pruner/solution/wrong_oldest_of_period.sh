#!/bin/bash
# Mistake: keeps the oldest snapshot of each period instead of the newest.
set -euo pipefail
sed 's/if k in allowed and (k not in best or t > past\[best\[k\]\]):/if k in allowed and (k not in best or t < past[best[k]]):/' /solution/prune.py > /app/prune.py
python3 /app/prune.py /backups/db --now 2025-03-15T12:00:00 >/dev/null
