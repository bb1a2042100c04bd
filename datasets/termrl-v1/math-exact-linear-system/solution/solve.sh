#!/bin/bash
set -euo pipefail
cat > /app/linsolve.py <<'PY'
import sys
from fractions import Fraction


def fmt(v):
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def main():
    tok = open(sys.argv[1]).read().split()
    m, n = int(tok[0]), int(tok[1])
    vals = [Fraction(t) for t in tok[2:2 + m * (n + 1)]]
    rows = [vals[i * (n + 1):(i + 1) * (n + 1)] for i in range(m)]
    pivots = []
    r = 0
    for c in range(n):
        p = next((i for i in range(r, m) if rows[i][c] != 0), None)
        if p is None:
            continue
        rows[r], rows[p] = rows[p], rows[r]
        inv = 1 / rows[r][c]
        rows[r] = [x * inv for x in rows[r]]
        for i in range(m):
            if i != r and rows[i][c] != 0:
                f = rows[i][c]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[r])]
        pivots.append(c)
        r += 1
        if r == m:
            break
    if any(rows[i][n] != 0 for i in range(r, m)):
        print("NONE")
        return
    x0 = [Fraction(0)] * n
    for i, c in enumerate(pivots):
        x0[c] = rows[i][n]
    free = [c for c in range(n) if c not in set(pivots)]
    out = [f"SOLUTION {len(free)}", " ".join(fmt(v) for v in x0)]
    for f in free:
        v = [Fraction(0)] * n
        v[f] = Fraction(1)
        for i, c in enumerate(pivots):
            v[c] = -rows[i][f]
        out.append(" ".join(fmt(x) for x in v))
    print("\n".join(out))


main()
PY
