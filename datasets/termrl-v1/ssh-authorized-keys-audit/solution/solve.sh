#!/bin/bash
set -euo pipefail
cp /solution/keyaudit.py /app/keyaudit.py
chmod +x /app/keyaudit.py
