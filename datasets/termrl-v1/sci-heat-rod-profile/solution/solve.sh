#!/bin/bash
set -euo pipefail
cat > /app/heat.py <<'PY'
"""Temperature in a rod: u_t = D u_xx on [0, 1], u(0, t) = u(1, t) = 0.

Exact Fourier sine series; the coefficients of a piecewise-linear profile are integrated in closed form.
Usage: python3 heat.py CONFIG.json
"""
import json
import math
import sys

import numpy as np


def coefficients(px, pu, nmax):
    n = np.arange(1, nmax + 1)
    k = n * np.pi
    b = np.zeros(nmax)
    for (x1, u1), (x2, u2) in zip(zip(px[:-1], pu[:-1]), zip(px[1:], pu[1:])):
        if x2 <= x1:
            continue
        s = (u2 - u1) / (x2 - x1)
        # integral of (u1 + s (x - x1)) sin(kx) dx from x1 to x2
        # = [-(u1 + s(x-x1)) cos(kx)/k + s sin(kx)/k^2]_{x1}^{x2}
        b += (-(u2 * np.cos(k * x2) - u1 * np.cos(k * x1)) / k + s * (np.sin(k * x2) - np.sin(k * x1)) / k ** 2)
    return 2 * b


def main():
    with open(sys.argv[1]) as fh:
        cfg = json.load(fh)
    D = float(cfg["D"])
    px = [float(p[0]) for p in cfg["profile"]]
    pu = [float(p[1]) for p in cfg["profile"]]
    q = np.array(cfg["queries"], dtype=float).reshape(-1, 2)
    tmin = q[:, 1].min() if len(q) else 1.0
    # terms decay like exp(-D n^2 pi^2 t) / n^2; keep n until that is far below 1e-12
    nmax = int(math.sqrt(40.0 / (D * math.pi ** 2 * tmin))) + 50
    b = coefficients(px, pu, nmax)
    n = np.arange(1, nmax + 1)
    out = []
    for x, t in q:
        terms = b * np.exp(-D * (n * np.pi) ** 2 * t) * np.sin(n * np.pi * x)
        out.append(repr(float(math.fsum(terms))))
    print("\n".join(out))


main()
PY
python3 /app/heat.py /app/example.json
