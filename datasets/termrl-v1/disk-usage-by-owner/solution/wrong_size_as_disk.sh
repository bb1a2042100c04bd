#!/bin/bash
# Mistake: reports apparent size for kib_on_disk (ignores sparseness).
set -euo pipefail
sed 's#            o\["kib_on_disk"\] += st.st_blocks \* 512 // 1024#            o["kib_on_disk"] += st.st_size // 1024#' /solution/usage.py > /app/usage_report
chmod +x /app/usage_report
/app/usage_report /srv/share > /app/share_usage.json
