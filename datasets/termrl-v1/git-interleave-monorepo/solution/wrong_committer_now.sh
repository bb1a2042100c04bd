#!/bin/bash
# Mistake: replays the commits in the right order with the right trees, but lets git use the
# current user and time as committer.
set -euo pipefail
git init -q -b main /app/mono
cd /app/mono
list=$( (git -C /app/frontend log --format="%at %H frontend" main; git -C /app/backend log --format="%at %H backend" main) | sort -n)
while read -r ts sha side; do
  find . -mindepth 1 -maxdepth 1 ! -name .git ! -name frontend ! -name backend -exec rm -rf {} +
  rm -rf "$side"
  mkdir -p "$side"
  git -C /app/$side archive "$sha" | tar -x -C "$side"
  git add -A
  GIT_AUTHOR_NAME="$(git -C /app/$side log -1 --format=%an $sha)" GIT_AUTHOR_EMAIL="$(git -C /app/$side log -1 --format=%ae $sha)" \
    GIT_AUTHOR_DATE="$(git -C /app/$side log -1 --format=%ad --date=raw $sha)" \
    git commit -q -m "$(git -C /app/$side log -1 --format=%B $sha)"
done <<< "$list"
