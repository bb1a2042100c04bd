#!/bin/bash
# Mistake: implements the drift-kick-drift variant of leapfrog instead of kick-drift-kick.
set -euo pipefail
cat > /app/nbody.py <<'PY'
import json
import sys

import numpy as np

cfg = json.load(open(sys.argv[1]))
steps, dt = int(sys.argv[2]), float(sys.argv[3])
pos = np.array(cfg["positions"], float)
vel = np.array(cfg["velocities"], float)
m = np.array(cfg["masses"], float)
G, eps = cfg["G"], cfg["softening"]


def acc(p):
    d = p[None] - p[:, None]
    r2 = (d ** 2).sum(-1) + eps ** 2
    w = r2 ** -1.5
    np.fill_diagonal(w, 0)
    return G * ((w * m[None])[:, :, None] * d).sum(1)


for _ in range(steps):
    pos += vel * dt / 2
    vel += acc(pos) * dt
    pos += vel * dt / 2
d = pos[None] - pos[:, None]
r = np.sqrt((d ** 2).sum(-1) + eps ** 2)
iu = np.triu_indices(len(m), 1)
E = 0.5 * (m * (vel ** 2).sum(1)).sum() - G * (m[:, None] * m[None] / r)[iu].sum()
json.dump({"positions": pos.tolist(), "velocities": vel.tolist(), "energy": float(E)}, open(sys.argv[4], "w"))
PY
