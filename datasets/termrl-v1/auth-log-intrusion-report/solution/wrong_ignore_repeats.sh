#!/bin/bash
# Mistake: treats "message repeated N times" lines as noise instead of N attempts.
set -euo pipefail
sed 's/r = REPEAT.match(msg)/r = None/' /solution/report.py > /tmp/report.py
python3 /tmp/report.py
