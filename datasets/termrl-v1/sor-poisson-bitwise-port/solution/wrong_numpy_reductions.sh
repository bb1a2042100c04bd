#!/bin/bash
# Plausible but wrong: the sweep is ported to C exactly, and the "easy" rest (residual norm, interior mean)
# is rewritten with NumPy reductions. np.sum adds pairwise, not left to right, so residual_rms and
# mean_interior differ from the original in the last bits.
set -euo pipefail
bash /solution/solve.sh
cd /app/poisson
python3 - <<'PY'
src = open("solve_poisson.py").read()
fast = '''
import numpy as _np


def residual_norm(u, f, nx, ny, h):
    U = _np.array(u, dtype=float)
    F = _np.array(f, dtype=float)
    inv_h2 = 1.0 / (h * h)
    lap = (U[1:-1, :-2] + U[1:-1, 2:] + U[:-2, 1:-1] + U[2:, 1:-1] - 4.0 * U[1:-1, 1:-1]) * inv_h2
    r = lap + F[1:-1, 1:-1]
    return float(_np.sqrt(_np.sum(r * r) / (nx * ny)))


'''
marker = "def main("
src = src.replace(marker, fast + marker, 1)
old = '''    interior_sum = 0.0
    for j in range(1, ny + 1):
        for i in range(1, nx + 1):
            interior_sum += u[j][i]
'''
assert old in src
src = src.replace(old, "    interior_sum = float(_np.array(u, dtype=float)[1:-1, 1:-1].sum())\n")
open("solve_poisson.py", "w").write(src)
PY
