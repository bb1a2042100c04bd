#!/bin/bash
set -euo pipefail
cd /app/repo
git checkout -q feature
# Turn squash! into fixup! so that only the target message is kept.
GIT_SEQUENCE_EDITOR="sed -i 's/^squash /fixup /'" git rebase -q -i --autosquash main
git log --format='%h %an %ad %s' main..feature
