#!/bin/bash
# Mistake: borrows the backup's objects through alternates instead of copying them, and only fixes what the
# backup has.
set -euo pipefail
cd /app/project
git fsck --full > /tmp/fsck.txt 2>&1 || true
for f in $(grep -oE '\.git/objects/[0-9a-f]{2}/[0-9a-f]{38}' /tmp/fsck.txt | sort -u); do rm -f "$f"; done
echo /app/backup/.git/objects > .git/objects/info/alternates
git hash-object -w src/div.py >/dev/null
