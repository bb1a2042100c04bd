#!/bin/bash
# Mistake: the textbook CRT formula for pairwise coprime moduli (product instead of lcm, no consistency check).
set -euo pipefail
cat > /app/crt.py <<'PY'
import sys

for line in open(sys.argv[1]):
    vals = [int(v) for v in line.split()]
    if not vals:
        continue
    rs, ms = vals[0::2], vals[1::2]
    M = 1
    for m in ms:
        M *= m
    x = 0
    try:
        for r, m in zip(rs, ms):
            Mi = M // m
            x += r * Mi * pow(Mi, -1, m)
        print(f"{x % M} {M}")
    except ValueError:
        print("NONE")
PY
