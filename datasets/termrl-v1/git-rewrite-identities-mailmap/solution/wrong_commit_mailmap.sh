#!/bin/bash
# Mistake: commits the mapping as .mailmap, so `git log` shows canonical names, but nothing is rewritten.
set -euo pipefail
cd /app/repo
cp /app/identities.mailmap .mailmap
git add .mailmap
git commit -q -m "Add mailmap"
