#!/bin/bash
# Mistake: a straightforward grid DP; correct, but far too slow for large grids.
set -euo pipefail
cat > /app/paths.py <<'PY'
import sys

MOD = 998244353
vals = list(map(int, open(sys.argv[1]).read().split()))
W, H, K = vals[0], vals[1], vals[2]
blocked = {(vals[3 + 2 * i], vals[4 + 2 * i]) for i in range(K)}
row = [0] * (W + 1)
for y in range(H + 1):
    for x in range(W + 1):
        if (x, y) in blocked:
            row[x] = 0
        elif x == 0 and y == 0:
            row[x] = 1
        else:
            row[x] = (row[x] + (row[x - 1] if x else 0)) % MOD
print(row[W])
PY
