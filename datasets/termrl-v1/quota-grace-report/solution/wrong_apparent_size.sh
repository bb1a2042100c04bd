#!/bin/bash
# Mistake: blocks from the apparent size (st_size, rounded up to KiB) instead of the allocated blocks.
set -euo pipefail
sed 's|        kib = st.st_blocks \* 512 // 1024|        kib = (st.st_size + 1023) // 1024|' /solution/quotarep.py > /app/quotarep
chmod +x /app/quotarep
/app/quotarep /etc/exports.quota /srv/export --state /var/lib/quotarep/state --now 2026-12-01T02:00:00 > /app/report.txt
