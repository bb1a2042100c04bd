#!/bin/bash
# Mistake: exact arithmetic, but the author treats "no unique solution" as "no solution":
# any rank-deficient system is answered NONE, and the null space is never reported.
set -euo pipefail
cat > /app/linsolve.py <<'PY'
import sys
from fractions import Fraction


def fmt(v):
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


tok = open(sys.argv[1]).read().split()
m, n = int(tok[0]), int(tok[1])
vals = [Fraction(t) for t in tok[2:2 + m * (n + 1)]]
rows = [vals[i * (n + 1):(i + 1) * (n + 1)] for i in range(m)]
r = 0
for c in range(n):
    p = next((i for i in range(r, m) if rows[i][c] != 0), None)
    if p is None:
        print("NONE")
        sys.exit(0)
    rows[r], rows[p] = rows[p], rows[r]
    inv = 1 / rows[r][c]
    rows[r] = [x * inv for x in rows[r]]
    for i in range(m):
        if i != r and rows[i][c] != 0:
            f = rows[i][c]
            rows[i] = [a - f * b for a, b in zip(rows[i], rows[r])]
    r += 1
if any(rows[i][n] != 0 for i in range(r, m)):
    print("NONE")
    sys.exit(0)
print("SOLUTION 0")
print(" ".join(fmt(rows[i][n]) for i in range(n)))
PY
