#!/bin/bash
# Mistake: estimates each clock error as the median difference to the firewall instead of the minimum,
# so delayed log lines (later sshd messages, slow requests) pull the offset off by a second or more.
set -euo pipefail
sed 's/d = min(diffs)/d = sorted(diffs)[len(diffs) \/\/ 2]/' /solution/timeline.py > /app/timeline.py
grep -q 'sorted(diffs)\[len(diffs) // 2\]' /app/timeline.py
