#!/bin/bash
set -euo pipefail
python3 /solution/crack.py
cat /app/cracked.txt
