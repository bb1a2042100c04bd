#!/bin/bash
set -euo pipefail
gcc -O2 -o /app/lcg_crack /solution/crack.c
cp /solution/predict.py /app/predict
chmod +x /app/predict
grep -o 'issued reset code [0-9]*' /app/logs/reset.log | awk '{print $4}' > /tmp/observed.txt
/app/predict /tmp/observed.txt 5 > /app/predicted.txt
cat /app/predicted.txt
