#!/bin/bash
set -euo pipefail
cp /solution/stmt.py /app/stmt.py
for f in /app/examples/*.csv; do
  diff <(python3 /app/stmt.py "$f") "${f%.csv}.txt"
done
