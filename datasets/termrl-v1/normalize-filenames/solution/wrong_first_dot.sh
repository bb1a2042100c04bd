#!/bin/bash
# Mistake: splits the extension at the first dot.
set -euo pipefail
sed 's/    i = name.rfind(".")/    i = name.find(".")/' /solution/normalize.py > /app/normalize
chmod +x /app/normalize
/app/normalize /app/inbox > /app/inbox_renames.tsv
