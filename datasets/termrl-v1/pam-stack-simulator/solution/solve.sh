#!/bin/bash
set -euo pipefail
cp /solution/pamsim.py /app/pamsim.py
chmod +x /app/pamsim.py
