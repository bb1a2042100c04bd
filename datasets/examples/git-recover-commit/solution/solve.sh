#!/bin/bash
set -euo pipefail
cd /app/repo
# The lost commit is still in the reflog of HEAD.
lost=$(git log -g --format='%H %s' HEAD | awk '$2 == "Add" && $3 == "migration" && $4 == "guide" && NF == 4 {print $1; exit}')
test -n "$lost"
git checkout -q main
git cherry-pick "$lost"
git status --short
git log --oneline -5
