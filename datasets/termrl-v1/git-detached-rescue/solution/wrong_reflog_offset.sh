#!/bin/bash
# Mistake: assumes the lost work is simply at HEAD@{1}, the previous position of HEAD.
set -euo pipefail
cd /app/repo
git branch hotfix-1.2 'HEAD@{1}'
git checkout -q main
