#!/bin/bash
# Mistake: "light chasing" with an all-zero first row: finds a solution when it happens to work, but neither
# minimal nor complete (it reports IMPOSSIBLE when the first row would need presses).
set -euo pipefail
cat > /app/lights.py <<'PY'
import sys

g = [[int(ch) for ch in l.strip()] for l in open(sys.argv[1]) if l.strip()]
R, C = len(g), len(g[0])
p = [[0] * C for _ in range(R)]


def press(r, c):
    p[r][c] ^= 1
    for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < R and 0 <= cc < C:
            g[rr][cc] ^= 1


for r in range(1, R):
    for c in range(C):
        if g[r - 1][c]:
            press(r, c)
if any(g[R - 1]) or any(any(row) for row in g):
    print("IMPOSSIBLE")
else:
    print("\n".join("".join(map(str, row)) for row in p))
PY
