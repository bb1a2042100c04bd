#!/bin/bash
set -euo pipefail
cp /solution/coprime.py /app/coprime.py
for f in /app/examples/*.txt; do diff <(python3 /app/coprime.py "$f") "${f%.txt}.answers"; done
