#!/bin/bash
# Change-Ids from the real trailer block (git interpret-trailers), latest patch set only, notes replaced
# (stale ones removed), and notes.displayRef so git log shows them.
set -euo pipefail
python3 "$(dirname "$0")/notes.py"
git -C /app/repo log -3 --format='%h %s%n%N'
