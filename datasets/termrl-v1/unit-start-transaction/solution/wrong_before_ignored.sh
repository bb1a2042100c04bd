#!/bin/bash
# Mistake: only After= orders units; Before= is read but never turned into an ordering edge.
set -euo pipefail
sed 's/                before\[b\].add(n)/                pass/' /solution/unitplan.py > /app/unitplan
chmod +x /app/unitplan
