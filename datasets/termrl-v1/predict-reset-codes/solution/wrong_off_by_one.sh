#!/bin/bash
# Mistake: after recovering the state, advances one step too few (re-emits the last observed code first).
set -euo pipefail
gcc -O2 -o /app/lcg_crack /solution/crack.c
sed 's/    for _ in obs\[1:\]:/    for _ in obs[2:]:/' /solution/predict.py > /app/predict
chmod +x /app/predict
grep -o 'issued reset code [0-9]*' /app/logs/reset.log | awk '{print $4}' > /tmp/observed.txt
/app/predict /tmp/observed.txt 5 > /app/predicted.txt
