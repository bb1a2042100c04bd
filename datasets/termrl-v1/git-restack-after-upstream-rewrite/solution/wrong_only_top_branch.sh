#!/bin/bash
# Mistake: moves feature-b correctly but forgets the stacked feature-a, which stays on the old upstream.
set -euo pipefail
cd /app/repo
first_own=$(git log --reverse --format='%H %s' origin/main..feature-a | awk '/Add power operation$/ {print $1}')
git rebase --onto origin/main "$first_own" feature-b
git branch -f main origin/main
