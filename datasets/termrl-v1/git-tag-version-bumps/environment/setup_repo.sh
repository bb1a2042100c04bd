#!/bin/bash
set -euo pipefail
export GIT_AUTHOR_NAME="Ravi Kumar" GIT_AUTHOR_EMAIL="ravi@example.in"
export GIT_COMMITTER_NAME="Ravi Kumar" GIT_COMMITTER_EMAIL="ravi@example.in"
git init -q -b main /app/repo
cd /app/repo
git config gc.auto 0
i=0
c() { i=$((i + 1)); export GIT_AUTHOR_DATE="2025-07-$(printf %02d $i)T10:00:00 +0000" GIT_COMMITTER_DATE="2025-07-$(printf %02d $i)T10:00:00 +0000"; git add -A; git commit -q -m "$1"; }
echo "0.1.0" > VERSION; echo "print('hi')" > app.py; c "Initial version"
echo "print('hello')" > app.py; c "Friendlier greeting"
echo "0.2.0" > VERSION; c "Bump version"
echo "# app" > README.md; c "Add README"
echo "print('hello, world')" > app.py; echo "0.2.1" > VERSION; c "Fix greeting and release"
echo "docs" >> README.md; c "More docs"
echo "0.2.1" > VERSION; echo "usage" >> README.md; c "Rewrite VERSION file, add usage"
echo "VERSION: see file" >> README.md; c "Mention VERSION file in README"
echo "1.0.0-rc1" > VERSION; c "Release candidate"
echo "print('hello, world!')" > app.py; c "Exclamation"
echo "1.0.0" > VERSION; c "Release 1.0.0"
git checkout -q -b experimental
echo "2.0.0-alpha" > VERSION; c "Start 2.0 experiment"
git checkout -q main
echo "1.0.1" > VERSION; echo "print('Hello, world!')" > app.py; c "Capitalise greeting"
git tag old-marker HEAD~3
