#!/bin/bash
set -euo pipefail
cp /solution/jwtriage.py /app/jwtriage.py
chmod +x /app/jwtriage.py
