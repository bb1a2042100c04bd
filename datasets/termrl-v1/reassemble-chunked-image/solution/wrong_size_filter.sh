#!/bin/bash
# Mistake: identifies leftovers by size only (drops short files), so the damaged full-size copy is "used".
set -euo pipefail
bash /solution/solve.sh
cd /app/upload/chunks && ls | while read -r f; do s=$(stat -c %s "$f"); [ "$s" -lt 16384 ] && [ "$s" != 3392 ] && echo "$f"; done | sort > /app/out/unused_chunks.txt
