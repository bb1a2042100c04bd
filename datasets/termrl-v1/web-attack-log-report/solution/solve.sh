#!/bin/bash
set -euo pipefail
python3 /solution/report.py
cat /app/attack_report.json
