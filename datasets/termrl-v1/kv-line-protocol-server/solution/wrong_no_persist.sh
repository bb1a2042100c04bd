#!/bin/bash
# Mistake: keeps data only in memory and ignores KV_DATA.
set -euo pipefail
bash /solution/solve.sh
sed -i 's/^def save():/def save():\n    return\n\ndef _unused():/; s/^    load()$/    pass/' /app/kvserver/server.py
