#!/bin/bash
set -euo pipefail
mkdir -p /app/restored
python3 /solution/rebuild.py
cat /app/restore_report.json
