#!/bin/bash
# Mistake: uses the shortcut a^((p+1)/4), which is only valid for p = 3 (mod 4).
set -euo pipefail
cat > /app/modsqrt.py <<'PY'
import sys

for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) != 2:
        continue
    a, p = map(int, parts)
    if a == 0:
        print(0)
        continue
    if p == 2:
        print(a)
        continue
    if pow(a, (p - 1) // 2, p) != 1:
        print("NONE")
        continue
    r = pow(a, (p + 1) // 4, p)
    print(" ".join(map(str, sorted({r, p - r}))))
PY
