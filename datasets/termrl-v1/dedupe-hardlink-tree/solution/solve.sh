#!/bin/bash
set -euo pipefail
cp /solution/dedupe.py /app/dedupe.py
python3 /app/dedupe.py /data
