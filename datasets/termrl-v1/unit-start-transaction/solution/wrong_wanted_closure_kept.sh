#!/bin/bash
# Mistake: only missing or masked units are dropped; a wanted unit whose Requires chain fails is
# still started.
set -euo pipefail
sed 's/            if any(r in bad for r in pl.load(n)\["Requires"\]):/            if False:/' /solution/unitplan.py > /app/unitplan
chmod +x /app/unitplan
