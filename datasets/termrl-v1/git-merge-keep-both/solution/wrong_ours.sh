#!/bin/bash
# Mistake: resolves every conflict in favour of main, silently dropping the discount feature's hunks.
set -euo pipefail
cd /app/repo
git checkout -q main
git merge --no-ff -X ours feature/discounts -m "Merge branch 'feature/discounts'"
