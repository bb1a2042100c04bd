#!/bin/bash
set -euo pipefail
cd /app/repo
# The old upstream commits are the ones below feature-a that are not in origin/main; the last of them is where
# feature-a started. "Add power operation" was picked upstream (edited docstring, new message), so it is
# dropped by starting the replay after it.
first_own=$(git log --reverse --format=%H origin/main..feature-a | while read -r c; do
  if [ "$(git log -1 --format=%s "$c")" = "Add power operation" ]; then echo "$c"; fi; done)
git rebase --onto origin/main "$first_own" feature-b --update-refs
git branch -f main origin/main
git status --short
