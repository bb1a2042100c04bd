#!/bin/bash
# Mistake: applies the patches in file-name order, forcing the rejected ones through with --3way/--reject handling skipped.
set -euo pipefail
R=/app/recovery
git init -q -b trunk /app/geodist
cd /app/geodist
tar -xf $R/snapshot.tar
export GIT_COMMITTER_NAME="Release Bot" GIT_COMMITTER_EMAIL="release-bot@example.org"
export GIT_AUTHOR_NAME="Ana Costa" GIT_AUTHOR_EMAIL="ana@example.org"
export GIT_AUTHOR_DATE="2024-11-02T08:00:00 +0000" GIT_COMMITTER_DATE="2024-11-02T08:00:00 +0000"
git add -A
git commit -q -m "Import project"
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_DATE
for f in $R/patches/*.patch; do
  git am -q --committer-date-is-author-date "$f" || git am --skip
done
git tag v1.0 "$(git log --format='%H %s' | awk '$2=="Release" && $3=="1.0" {print $1}')" || true
