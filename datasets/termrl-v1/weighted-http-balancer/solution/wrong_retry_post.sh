#!/bin/bash
# Mistake: every method is retried on another backend, so a POST that failed may be applied twice.
set -euo pipefail
bash /solution/solve.sh
sed -i 's/^RETRY = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}/RETRY = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS", "POST", "PATCH"}/' /app/lb/lb.py
grep -q '"POST", "PATCH"}' /app/lb/lb.py
