#!/bin/bash
# Mistake: bisects with the unit test suite instead of the observed behaviour.
set -euo pipefail
cd /app/repo
git bisect start main v1.0
git bisect run python3 -m pytest -q tests > /tmp/bisect.log
bad=$(git rev-parse refs/bisect/bad)
git bisect reset >/dev/null
echo "$bad" > /app/first_bad_commit.txt
git checkout -q main
git revert --no-edit "$bad"
