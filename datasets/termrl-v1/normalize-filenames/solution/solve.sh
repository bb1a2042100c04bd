#!/bin/bash
set -euo pipefail
cp /solution/normalize.py /app/normalize
chmod +x /app/normalize
/app/normalize /app/inbox > /app/inbox_renames.tsv
cat /app/inbox_renames.tsv
