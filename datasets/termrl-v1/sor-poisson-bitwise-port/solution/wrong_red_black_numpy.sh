#!/bin/bash
# Plausible but wrong: "SOR is SOR" -- the sweep is vectorised with NumPy in red-black order, the usual way to
# make SOR fast. It converges to the same solution, but not through the same iterates: the bits, the
# iteration count and the last change all differ from the original's lexicographic sweep.
set -euo pipefail
cd /app/poisson
python3 - <<'PY'
src = open("solve_poisson.py").read()
fast = '''
import numpy as _np


def sor(u, f, nx, ny, h, omega, tol, max_iter):
    U = _np.array(u, dtype=float)
    F = _np.array(f, dtype=float)
    h2 = h * h
    jj, ii = _np.meshgrid(_np.arange(1, ny + 1), _np.arange(1, nx + 1), indexing="ij")
    masks = [((jj + ii) % 2) == c for c in (0, 1)]
    change = 0.0
    it = 0
    while it < max_iter:
        it += 1
        change = 0.0
        for m in masks:
            c = U[1:-1, 1:-1]
            gs = 0.25 * (U[1:-1, :-2] + U[1:-1, 2:] + U[:-2, 1:-1] + U[2:, 1:-1] + h2 * F[1:-1, 1:-1])
            d = _np.where(m, omega * (gs - c), 0.0)
            c += d
            change = max(change, float(_np.abs(d).max()) if d.size else 0.0)
        if change < tol:
            break
    for j in range(ny + 2):
        u[j][:] = U[j].tolist()
    return it, change < tol, change


'''
marker = "def residual_norm("
open("solve_poisson.py", "w").write(src.replace(marker, fast + marker, 1))
PY
