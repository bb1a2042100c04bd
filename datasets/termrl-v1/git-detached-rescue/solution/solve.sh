#!/bin/bash
set -euo pipefail
cd /app/repo
# The detached commits are still recorded in HEAD's reflog.
tip=$(git log -g --format='%H%x09%s' HEAD | awk -F'\t' '$2 == "Support feet" {print $1; exit}')
test -n "$tip"
git branch hotfix-1.2 "$tip"
git checkout -q main
git log --oneline v1.2..hotfix-1.2
