#!/bin/bash
# Mistake: reads the description column as always 24 wide (true in most examples), missing that it shrinks to
# the longest description (at least 11).
set -euo pipefail
sed 's/width = max(\[11\] + \[min(24, len(r\[3\])) for r in recs\])/width = 24/' /solution/stmt.py > /app/stmt.py
grep -q "width = 24" /app/stmt.py
