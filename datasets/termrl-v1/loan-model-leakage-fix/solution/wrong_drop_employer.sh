#!/bin/bash
set -euo pipefail
# Honest but throws away the employer signal entirely.
sed -i 's/, "employer_rate", "collections_flag"\]/]/' /app/pipeline/train.py
cd /app/pipeline && python3 train.py
