#!/bin/bash
# Mistake: extracts with tar but deletes files failing the checksum; never carves the file behind the broken header.
mkdir -p /app/recovered
cd /app/recovered && tar -xf /app/backup/backup.tar --ignore-zeros 2>/dev/null
sha256sum -c /app/backup/manifest.sha256 2>/dev/null | grep ': FAILED$' | sed 's/: FAILED$//' | xargs -r rm -f
cut -d' ' -f3- /app/backup/manifest.sha256 | while read -r f; do [ -e "$f" ] || echo "$f"; done | LC_ALL=C sort > /app/unrecoverable.txt
exit 0
