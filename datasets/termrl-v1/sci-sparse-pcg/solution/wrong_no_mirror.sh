#!/bin/bash
# Mistake: treats the stored lower triangle as the whole matrix (forgets the mirrored entries).
set -euo pipefail
cat > /app/spsolve.py <<'PY'
import sys

import numpy as np

with open(sys.argv[1]) as fh:
    lines = [l for l in fh if not l.startswith("%")]
n = int(lines[0].split()[0])
data = np.array(" ".join(lines[1:]).split(), dtype=float).reshape(-1, 3)
rows = data[:, 0].astype(int) - 1
cols = data[:, 1].astype(int) - 1
vals = data[:, 2]
b = np.loadtxt(sys.argv[2]).reshape(-1)


def matvec(x):
    return np.bincount(rows, weights=vals * x[cols], minlength=n)


x = np.zeros(n)
r = b.copy()
p = r.copy()
rr = r @ r
for _ in range(min(5 * n, 400)):
    Ap = matvec(p)
    a = rr / (p @ Ap)
    x += a * p
    r -= a * Ap
    rr2 = r @ r
    if rr2 ** 0.5 < 1e-11 * np.linalg.norm(b):
        break
    p = r + rr2 / rr * p
    rr = rr2
np.savetxt(sys.argv[3], x, fmt="%.17g")
PY
