#!/bin/bash
set -euo pipefail
cp /solution/exposure.py /app/exposure.py
chmod +x /app/exposure.py
