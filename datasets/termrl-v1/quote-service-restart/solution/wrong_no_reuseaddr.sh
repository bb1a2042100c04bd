#!/bin/bash
# Mistake: fixes config and paths but not the restart problem (no SO_REUSEADDR).
set -euo pipefail
bash /solution/solve.sh
sed -i '/SO_REUSEADDR/d' /app/quotesvc/server.py
