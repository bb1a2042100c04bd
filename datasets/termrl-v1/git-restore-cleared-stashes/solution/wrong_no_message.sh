#!/bin/bash
# Mistake: finds and orders the right commits but stores them without their descriptions.
set -euo pipefail
cd /app/repo
git fsck --no-reflogs --unreachable 2>/dev/null | awk '$2 == "commit" {print $3}' > /tmp/unreach.txt
while read -r w; do
  s=$(git log -1 --format=%s "$w")
  case "$s" in "WIP on "*|"On "*) ;; *) continue ;; esac
  [ "$(git log -1 --format=%P "$w" | wc -w)" -ge 2 ] || continue
  echo "$(git log -1 --format=%ct "$w") $w"
done < /tmp/unreach.txt | sort -n | while read -r _ w; do git stash store "$w"; done
