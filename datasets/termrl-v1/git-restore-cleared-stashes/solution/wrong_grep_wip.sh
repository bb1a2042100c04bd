#!/bin/bash
# Mistake: the usual recipe `git log --merges --grep=WIP` over unreachable commits; it misses the stashes
# made with `git stash push -m` (their subject is "On <branch>: ...").
set -euo pipefail
cd /app/repo
git fsck --no-reflogs --unreachable 2>/dev/null | awk '$2 == "commit" {print $3}' \
  | xargs git log --merges --no-walk --grep=WIP --format='%ct %H' | sort -n | while read -r _ w; do
  git stash store -m "$(git log -1 --format=%s "$w")" "$w"
done
