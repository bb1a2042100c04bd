#!/bin/bash
set -euo pipefail
cp /solution/nonogram.py /app/nonogram.py
python3 /app/nonogram.py /app/examples/puzzle1.txt
