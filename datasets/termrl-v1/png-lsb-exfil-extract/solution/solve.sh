#!/bin/bash
set -euo pipefail
cp /solution/stegx.py /app/stegx.py
chmod +x /app/stegx.py
