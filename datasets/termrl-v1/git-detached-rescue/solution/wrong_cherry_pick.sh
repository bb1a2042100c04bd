#!/bin/bash
# Mistake: rebuilds the hotfix as copies (cherry-picks) instead of pointing at the original commits.
set -euo pipefail
cd /app/repo
commits=$(git log -g --format='%H%x09%s' HEAD | awk -F'\t' '$2 == "Raise ValueError for unknown units" || $2 == "Add convert_all helper" || $2 == "Support feet" {print $1}' | awk '!seen[$0]++' | tac)
git checkout -q -b hotfix-1.2 v1.2
git cherry-pick $commits
git checkout -q main
