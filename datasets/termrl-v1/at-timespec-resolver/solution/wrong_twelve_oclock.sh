#!/bin/bash
# Mistake: the classic 12-hour conversion "add 12 for pm": 12pm becomes invalid and 12am means noon.
set -euo pipefail
sed 's/        h = h % 12 + (12 if ap == "pm" else 0)/        h = h + (12 if ap == "pm" else 0)/' /solution/when.py > /app/when
chmod +x /app/when
