#!/bin/bash
# Mistake: applies the patches in the right order, but as the local user with the current date as committer.
set -euo pipefail
R=/app/recovery
git init -q -b trunk /app/geodist
cd /app/geodist
tar -xf $R/snapshot.tar
git add -A
GIT_AUTHOR_NAME="Ana Costa" GIT_AUTHOR_EMAIL="ana@example.org" GIT_AUTHOR_DATE="2024-11-02T08:00:00 +0000" \
  git commit -q -m "Import project"
ordered=$(for f in $R/patches/*.patch; do
  d=$(sed -n 's/^Date: //p' "$f" | head -1)
  echo "$(date -u -d "$d" +%s) $f"
done | sort -n | cut -d' ' -f2-)
git am -q $ordered
git tag v1.0 "$(git log --format='%H %s' | awk '$2=="Release" && $3=="1.0" {print $1}')"
