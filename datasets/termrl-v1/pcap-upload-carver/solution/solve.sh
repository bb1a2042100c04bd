#!/bin/bash
set -euo pipefail
cp /solution/carve.py /app/carve.py
chmod +x /app/carve.py
