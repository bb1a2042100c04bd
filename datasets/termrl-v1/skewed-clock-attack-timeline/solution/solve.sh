#!/bin/bash
set -euo pipefail
install -m 755 /solution/timeline.py /app/timeline.py
python3 /app/timeline.py /app/case 203.0.113.9 | head -5
