#!/bin/bash
# Mistake: trusts GNU tar's best-effort extraction and only reports what tar did not create.
mkdir -p /app/recovered
cd /app/recovered && tar -xf /app/backup/backup.tar --ignore-zeros 2>/dev/null
cut -d' ' -f3- /app/backup/manifest.sha256 | while read -r f; do [ -e "$f" ] || echo "$f"; done | LC_ALL=C sort > /app/unrecoverable.txt
exit 0
