"""Temperature in a rod: u_t = D u_xx on [0, 1], u(0, t) = u(1, t) = 0.

Usage: python3 heat.py CONFIG.json
"""
import json
import sys

import numpy as np


def main():
    cfg = json.load(open(sys.argv[1]))
    D = cfg["D"]
    px, pu = zip(*cfg["profile"])
    nx = 201
    x = np.linspace(0, 1, nx)
    u = np.interp(x, px, pu)
    dx = x[1] - x[0]
    dt = 0.4 * dx * dx / D
    t = 0.0
    for qx, qt in sorted(cfg["queries"], key=lambda q: q[1]):
        pass
    results = []
    for qx, qt in cfg["queries"]:
        v = u.copy()
        t = 0.0
        while t < qt:
            v[1:-1] = v[1:-1] + D * dt / dx ** 2 * (v[2:] - 2 * v[1:-1] + v[:-2])
            t += dt
        results.append(np.interp(qx, x, v))
    print("\n".join(f"{r:.10g}" for r in results))


main()
