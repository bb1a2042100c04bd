#!/bin/bash
# A stash commit W has parents (HEAD, I[, U]) where I is the "index on ..." commit whose only parent is HEAD
# (and U, if present, is a root commit "untracked files on ..."). Find the dangling ones, oldest first.
set -euo pipefail
cd /app/repo
git fsck --no-reflogs --unreachable 2>/dev/null | awk '$2 == "commit" {print $3}' > /tmp/unreach.txt
: > /tmp/stashes.txt
while read -r w; do
  read -r -a parents <<< "$(git log -1 --format=%P "$w")"
  n=${#parents[@]}
  { [ "$n" -eq 2 ] || [ "$n" -eq 3 ]; } || continue
  i=${parents[1]}
  [ "$(git log -1 --format=%P "$i")" = "${parents[0]}" ] || continue
  git log -1 --format=%s "$i" | grep -q '^index on ' || continue
  if [ "$n" -eq 3 ]; then
    [ -z "$(git log -1 --format=%P "${parents[2]}")" ] || continue
    git log -1 --format=%s "${parents[2]}" | grep -q '^untracked files on ' || continue
  fi
  echo "$(git log -1 --format=%ct "$w") $w" >> /tmp/stashes.txt
done < /tmp/unreach.txt
sort -n /tmp/stashes.txt | while read -r _ w; do
  git stash store -m "$(git log -1 --format=%s "$w")" "$w"
done
git stash list
