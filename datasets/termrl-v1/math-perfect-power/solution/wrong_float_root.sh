#!/bin/bash
# Mistake: uses floating-point roots with rounding, which is wrong for large numbers.
set -euo pipefail
cat > /app/power.py <<'PY'
import sys

for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        continue
    n = int(line)
    if n == 1:
        print("1 1")
        continue
    ans = (n, 1)
    for b in range(n.bit_length(), 1, -1):
        a = round(n ** (1.0 / b))
        if a > 1 and a ** b == n:
            ans = (a, b)
            break
    print(*ans)
PY
