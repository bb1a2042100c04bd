#!/bin/bash
# Mistake: commits the documentation first.
set -euo pipefail
cd /app/repo
target=$(git log --format='%H %s' main | awk '$2=="Parser" && $3=="fix" {print $1}')
short=$(git rev-parse --short "$target")
GIT_SEQUENCE_EDITOR="sed -i 's/^pick $short /edit $short /'" git rebase -i "$target^"
git reset -q HEAD^
git add README.md
git commit -q -C "$target"
git commit -q --amend -m "Document export options"
git add src/parser.py
git commit -q -C "$target"
git commit -q --amend -m "Fix header parsing in parser"
git rebase --continue
