#!/bin/bash
# Mistake: carries the divisor-block loop over from the square case: blocks end where A's quotient changes,
# ignoring B's quotient, so rectangles are miscounted.
set -euo pipefail
sed 's/d2 = min(a \/\/ qa, b \/\/ qb)/d2 = a \/\/ qa/' /solution/coprime.py > /app/coprime.py
grep -q "d2 = a // qa$" /app/coprime.py
