#!/bin/bash
# Mistake: MAXCONN is read but never enforced.
set -euo pipefail
bash /solution/solve.sh
sed -i 's/                if running\[0\] >= maxconn:/                if False:/' /app/inetd/inetd.py
grep -q 'if False:' /app/inetd/inetd.py
