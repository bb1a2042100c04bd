#!/bin/bash
set -euo pipefail
# Removes the post-outcome column but keeps the full-data target encoding (still leaks in CV).
sed -i 's/, "employer_rate", "collections_flag"\]/, "employer_rate"]/' /app/pipeline/train.py
grep -q '"employer_rate"]' /app/pipeline/train.py
cd /app/pipeline && python3 train.py
