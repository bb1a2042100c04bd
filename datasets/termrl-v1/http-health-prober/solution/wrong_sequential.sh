#!/bin/bash
# Mistake: correct classification, but probes the checks one after another.
set -euo pipefail
sed 's/max_workers=max(1, len(checks))/max_workers=1/' /solution/probe.py > /app/probe.py
