#!/bin/bash
# Mistake: selects the address's log lines by plain substring, so 203.0.113.90 (and the like) come along.
set -euo pipefail
sed 's/if mention.search(text):/if addr in text:/' /solution/timeline.py > /app/timeline.py
grep -q 'if addr in text:' /app/timeline.py
