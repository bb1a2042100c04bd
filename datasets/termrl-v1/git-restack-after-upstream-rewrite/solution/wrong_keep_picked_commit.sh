#!/bin/bash
# Mistake: finds the old fork point but replays every own commit, resolving the clash with the commit upstream
# took over in favour of the developer's version (brings the old docstring typo back).
set -euo pipefail
cd /app/repo
base=$(git log --format='%H %s' feature-a | awk '/ Add div$/ {print $1}')
git rebase --onto origin/main "$base" feature-b --update-refs -X theirs
git branch -f main origin/main
