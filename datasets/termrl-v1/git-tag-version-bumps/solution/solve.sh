#!/bin/bash
set -euo pipefail
cd /app/repo
prev=""
for c in $(git rev-list --reverse main); do
  v=$(git show "$c:VERSION" 2>/dev/null || true)
  if [ -n "$v" ] && [ "$v" != "$prev" ]; then
    git tag -a "v$v" -m "Release $v" "$c"
  fi
  prev="$v"
done
git tag -n1
