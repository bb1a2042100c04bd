#!/bin/bash
# Mistake: tags every commit that touched VERSION according to `git log -- VERSION` (including no-op
# rewrites) and uses lightweight tags.
set -euo pipefail
cd /app/repo
for c in $(git log --reverse --format=%H --all -- VERSION); do
  v=$(git show "$c:VERSION")
  git tag -f "v$v" "$c" >/dev/null
done
