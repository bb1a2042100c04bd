#!/bin/bash
# Mistake: eliminates in floating point (with partial pivoting and a tolerance) and turns the
# results back into fractions with limit_denominator; fine on small tidy systems, wrong on
# ill-conditioned ones (Hilbert-like) and on answers with large numerators/denominators.
set -euo pipefail
cat > /app/linsolve.py <<'PY'
import sys
from fractions import Fraction

EPS = 1e-9


def fmt(x):
    v = Fraction(x).limit_denominator(10**6)
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


tok = open(sys.argv[1]).read().split()
m, n = int(tok[0]), int(tok[1])
vals = [float(Fraction(t)) for t in tok[2:2 + m * (n + 1)]]
rows = [vals[i * (n + 1):(i + 1) * (n + 1)] for i in range(m)]
pivots = []
r = 0
for c in range(n):
    if r == m:
        break
    p = max(range(r, m), key=lambda i: abs(rows[i][c]))
    if abs(rows[p][c]) < EPS:
        continue
    rows[r], rows[p] = rows[p], rows[r]
    piv = rows[r][c]
    rows[r] = [x / piv for x in rows[r]]
    for i in range(m):
        if i != r:
            f = rows[i][c]
            rows[i] = [a - f * b for a, b in zip(rows[i], rows[r])]
    pivots.append(c)
    r += 1
if any(abs(rows[i][n]) > EPS for i in range(r, m)):
    print("NONE")
    sys.exit(0)
x0 = [0.0] * n
for i, c in enumerate(pivots):
    x0[c] = rows[i][n]
free = [c for c in range(n) if c not in pivots]
print(f"SOLUTION {len(free)}")
print(" ".join(fmt(v) for v in x0))
for f in free:
    v = [0.0] * n
    v[f] = 1.0
    for i, c in enumerate(pivots):
        v[c] = -rows[i][f]
    print(" ".join(fmt(x) for x in v))
PY
