#!/bin/bash
# Mistake: the grace period is counted from the current run every time (the saved start is
# overwritten), so it never expires.
set -euo pipefail
sed 's/                state.setdefault(key, now.isoformat())/                state[key] = now.isoformat()/' /solution/quotarep.py > /app/quotarep
chmod +x /app/quotarep
/app/quotarep /etc/exports.quota /srv/export --state /var/lib/quotarep/state --now 2026-12-01T02:00:00 > /app/report.txt
