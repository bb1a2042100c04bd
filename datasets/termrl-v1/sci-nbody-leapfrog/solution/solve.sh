#!/bin/bash
set -euo pipefail
cat > /app/nbody.py <<'PY'
"""Gravitational N-body integrator (kick-drift-kick leapfrog).

Usage: python3 nbody.py CONFIG.json STEPS DT OUT.json
"""
import json
import sys

import numpy as np


def accelerations(pos, m, G, eps):
    d = pos[None, :, :] - pos[:, None, :]          # d[i, j] = r_j - r_i
    r2 = np.einsum("ijk,ijk->ij", d, d) + eps * eps
    inv3 = r2 ** -1.5
    np.fill_diagonal(inv3, 0.0)
    return G * np.einsum("ij,ijk->ik", inv3 * m[None, :], d)


def energy(pos, vel, m, G, eps):
    kin = 0.5 * np.sum(m * np.einsum("ik,ik->i", vel, vel))
    d = pos[None, :, :] - pos[:, None, :]
    r = np.sqrt(np.einsum("ijk,ijk->ij", d, d) + eps * eps)
    iu = np.triu_indices(len(m), 1)
    pot = -G * np.sum((m[:, None] * m[None, :] / r)[iu])
    return float(kin + pot)


def main():
    with open(sys.argv[1]) as fh:
        cfg = json.load(fh)
    steps, dt = int(sys.argv[2]), float(sys.argv[3])
    pos = np.array(cfg["positions"], dtype=float)
    vel = np.array(cfg["velocities"], dtype=float)
    m = np.array(cfg["masses"], dtype=float)
    G, eps = float(cfg["G"]), float(cfg["softening"])
    acc = accelerations(pos, m, G, eps)
    for _ in range(steps):
        vel += acc * (dt / 2)
        pos += vel * dt
        acc = accelerations(pos, m, G, eps)
        vel += acc * (dt / 2)
    with open(sys.argv[4], "w") as fh:
        json.dump({"positions": pos.tolist(), "velocities": vel.tolist(),
                   "energy": energy(pos, vel, m, G, eps)}, fh)


main()
PY
python3 /app/nbody.py /app/three_body.json 1000 0.001 /tmp/out.json && head -c 300 /tmp/out.json
