#!/bin/bash
set -euo pipefail
awk '{print $9}' /app/access.log | sort -n | uniq -c | awk '{print $2, $1}' > /app/status_counts.txt
