#!/bin/bash
# Mistake: takes every dangling commit with more than one parent as a stash (a thrown-away merge is one
# too) and stores them in the order fsck lists them.
set -euo pipefail
cd /app/repo
for w in $(git fsck --no-reflogs --dangling 2>/dev/null | awk '$2 == "commit" {print $3}'); do
  if [ "$(git log -1 --format=%P "$w" | wc -w)" -ge 2 ]; then
    git stash store -m "$(git log -1 --format=%s "$w")" "$w"
  fi
done
