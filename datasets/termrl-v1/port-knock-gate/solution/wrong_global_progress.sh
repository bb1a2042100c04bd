#!/bin/bash
# Mistake: one progress counter for everybody, so knocks from different hosts mix.
set -euo pipefail
bash /solution/solve.sh
sed -i 's/PROGRESS.get(ip, 0)/PROGRESS.get("all", 0)/g; s/PROGRESS\[ip\] = /PROGRESS["all"] = /g' /app/knock/knock.py
grep -q 'PROGRESS\["all"\]' /app/knock/knock.py
