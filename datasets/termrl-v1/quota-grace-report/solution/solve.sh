#!/bin/bash
set -euo pipefail
cp /solution/quotarep.py /app/quotarep
chmod +x /app/quotarep
/app/quotarep /etc/exports.quota /srv/export --state /var/lib/quotarep/state --now 2026-12-01T02:00:00 > /app/report.txt
cat /app/report.txt
