#!/bin/bash
# Mistake: usage is summed per path, so a file with several hard links is charged once per link.
set -euo pipefail
sed 's/        if key in seen:/        if False:/' /solution/quotarep.py > /app/quotarep
chmod +x /app/quotarep
/app/quotarep /etc/exports.quota /srv/export --state /var/lib/quotarep/state --now 2026-12-01T02:00:00 > /app/report.txt
