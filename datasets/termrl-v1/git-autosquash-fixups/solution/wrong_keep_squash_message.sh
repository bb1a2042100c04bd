#!/bin/bash
# Mistake: plain autosquash; the squash! commit's message is appended to "Add parser".
set -euo pipefail
cd /app/repo
git checkout -q feature
GIT_EDITOR=true GIT_SEQUENCE_EDITOR=true git rebase -q -i --autosquash main
