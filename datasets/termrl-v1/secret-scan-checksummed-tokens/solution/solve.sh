#!/bin/bash
set -euo pipefail
cp /solution/secretscan.py /app/secretscan.py
chmod +x /app/secretscan.py
