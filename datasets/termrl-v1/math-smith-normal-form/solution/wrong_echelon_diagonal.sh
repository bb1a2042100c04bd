#!/bin/bash
# Mistake: reports the absolute pivots of an integer row echelon form (Hermite-like), which are not the
# invariant factors in general.
set -euo pipefail
cat > /app/snf.py <<'PY'
import sys

data = open(sys.argv[1]).read().split()
m, n = int(data[0]), int(data[1])
v = list(map(int, data[2:2 + m * n]))
A = [v[i * n:(i + 1) * n] for i in range(m)]
r = 0
piv = []
for c in range(n):
    while True:
        rows = [i for i in range(r, m) if A[i][c]]
        if not rows:
            break
        i = min(rows, key=lambda k: abs(A[k][c]))
        A[r], A[i] = A[i], A[r]
        done = True
        for k in range(r + 1, m):
            q = A[k][c] // A[r][c]
            A[k] = [a - q * b for a, b in zip(A[k], A[r])]
            if A[k][c]:
                done = False
        if done:
            piv.append(abs(A[r][c]))
            r += 1
            break
    if r == m:
        break
print(" ".join(map(str, sorted(piv))) if piv else "ZERO")
PY
