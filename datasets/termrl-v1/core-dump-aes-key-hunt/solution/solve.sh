#!/bin/bash
set -euo pipefail
cp /solution/keyhunt.py /app/keyhunt.py
chmod +x /app/keyhunt.py
