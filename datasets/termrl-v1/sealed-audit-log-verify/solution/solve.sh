#!/bin/bash
set -euo pipefail
cp /solution/sealcheck.py /app/sealcheck.py
chmod +x /app/sealcheck.py
