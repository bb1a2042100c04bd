#!/usr/bin/env python3
"""Steady-state potential on a rectangular plate (legacy lab code, pure Python).

Solves -laplace(u) = f on a grid of nx by ny interior points with spacing h, fixed (Dirichlet)
values on the four edges, by successive over-relaxation (SOR) sweeps.

    python3 solve_poisson.py PROBLEM.json OUTDIR

PROBLEM.json:
    {"nx": 64, "ny": 48, "h": 0.01, "omega": 1.8, "tol": 1e-9, "max_iter": 5000,
     "edges": {"west": 0.0, "east": 1.0, "south": 0.0, "north": 0.5},
     "sources": [[x, y, sigma, amplitude], ...]}

Writes OUTDIR/u.bin (the whole (ny+2) x (nx+2) grid, edges included, row by row from the south
edge, each row west to east, as little-endian float64) and OUTDIR/summary.json.

Our downstream analyses compare runs bit for bit, so every number this program writes is part of
its contract.
"""
import json
import math
import os
import sys
from array import array


def source_term(nx, ny, h, sources):
    f = [[0.0] * (nx + 2) for _ in range(ny + 2)]
    for j in range(ny + 2):
        y = j * h
        for i in range(nx + 2):
            x = i * h
            s = 0.0
            for sx, sy, sigma, amp in sources:
                r2 = (x - sx) * (x - sx) + (y - sy) * (y - sy)
                s += amp * math.exp(-r2 / (2.0 * sigma * sigma))
            f[j][i] = s
    return f


def initial_grid(nx, ny, edges):
    u = [[0.0] * (nx + 2) for _ in range(ny + 2)]
    for i in range(nx + 2):
        u[0][i] = edges["south"]
        u[ny + 1][i] = edges["north"]
    for j in range(ny + 2):
        u[j][0] = edges["west"]
        u[j][nx + 1] = edges["east"]
    # the corners touch no interior point; by convention they hold the mean of their two edges
    u[0][0] = 0.5 * (edges["south"] + edges["west"])
    u[0][nx + 1] = 0.5 * (edges["south"] + edges["east"])
    u[ny + 1][0] = 0.5 * (edges["north"] + edges["west"])
    u[ny + 1][nx + 1] = 0.5 * (edges["north"] + edges["east"])
    return u


def sor(u, f, nx, ny, h, omega, tol, max_iter):
    h2 = h * h
    change = 0.0
    it = 0
    while it < max_iter:
        it += 1
        change = 0.0
        for j in range(1, ny + 1):
            row, below, above, frow = u[j], u[j - 1], u[j + 1], f[j]
            for i in range(1, nx + 1):
                gs = 0.25 * (row[i - 1] + row[i + 1] + below[i] + above[i] + h2 * frow[i])
                d = omega * (gs - row[i])
                row[i] = row[i] + d
                if abs(d) > change:
                    change = abs(d)
        if change < tol:
            return it, True, change
    return it, False, change


def residual_norm(u, f, nx, ny, h):
    """Root-mean-square of the discrete residual over the interior points."""
    inv_h2 = 1.0 / (h * h)
    total = 0.0
    for j in range(1, ny + 1):
        for i in range(1, nx + 1):
            lap = (u[j][i - 1] + u[j][i + 1] + u[j - 1][i] + u[j + 1][i] - 4.0 * u[j][i]) * inv_h2
            r = lap + f[j][i]
            total += r * r
    return math.sqrt(total / (nx * ny))


def main(argv):
    if len(argv) != 3:
        print("usage: solve_poisson.py PROBLEM.json OUTDIR", file=sys.stderr)
        return 2
    with open(argv[1]) as fh:
        p = json.load(fh)
    nx, ny, h = int(p["nx"]), int(p["ny"]), float(p["h"])
    omega, tol, max_iter = float(p["omega"]), float(p["tol"]), int(p["max_iter"])
    edges = {k: float(p["edges"][k]) for k in ("west", "east", "south", "north")}
    sources = [tuple(float(v) for v in s) for s in p.get("sources", [])]

    f = source_term(nx, ny, h, sources)
    u = initial_grid(nx, ny, edges)
    iterations, converged, change = sor(u, f, nx, ny, h, omega, tol, max_iter)
    res = residual_norm(u, f, nx, ny, h)

    os.makedirs(argv[2], exist_ok=True)
    flat = array("d")
    for row in u:
        flat.extend(row)
    if sys.byteorder != "little":
        flat.byteswap()
    with open(os.path.join(argv[2], "u.bin"), "wb") as fh:
        fh.write(flat.tobytes())
    interior_sum = 0.0
    for j in range(1, ny + 1):
        for i in range(1, nx + 1):
            interior_sum += u[j][i]
    summary = {
        "iterations": iterations,
        "converged": converged,
        "last_change": change,
        "residual_rms": res,
        "mean_interior": interior_sum / (nx * ny),
        "centre": u[(ny + 1) // 2][(nx + 1) // 2],
    }
    with open(os.path.join(argv[2], "summary.json"), "w") as fh:
        json.dump(summary, fh, indent=1)
        fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
