#!/bin/bash
# Mistake: the classic subtree merge: two separate histories joined by a merge commit (not linear, not interleaved).
set -euo pipefail
git init -q -b main /app/mono
cd /app/mono
git commit -q --allow-empty -m "Create monorepo"
for s in frontend backend; do
  git fetch -q /app/$s main:refs/src/$s
  git merge -q --allow-unrelated-histories -s ours --no-commit refs/src/$s
  git read-tree --prefix=$s/ -u refs/src/$s
  git commit -q -m "Import $s"
done
