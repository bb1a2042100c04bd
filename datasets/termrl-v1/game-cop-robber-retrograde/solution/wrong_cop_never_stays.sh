#!/bin/bash
# Mistake: overlooks that the cop may stay put; the cop is forced to move like the robber.
set -euo pipefail
sed 's/for d in adj\[c\] + \[c\] if d not in exits\]/for d in adj[c] if d not in exits]/' /solution/coprob.py > /app/coprob.py
grep -q "for d in adj\[c\] if d not in exits\]" /app/coprob.py
