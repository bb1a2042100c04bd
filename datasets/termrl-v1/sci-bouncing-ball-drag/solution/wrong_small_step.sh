#!/bin/bash
# Mistake: keeps the time-stepping approach, just with RK4, a smaller step and linear interpolation of impacts.
set -euo pipefail
cat > /app/bounce.py <<'PY'
import sys

G = 9.81
h0, k, c, n = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])


def acc(v):
    return -G - k * v * abs(v)


t, y, v = 0.0, h0, 0.0
dt = 2e-4
out, apex, t_hit = [], None, None
while len(out) < n:
    k1y, k1v = v, acc(v)
    k2y, k2v = v + dt / 2 * k1v, acc(v + dt / 2 * k1v)
    k3y, k3v = v + dt / 2 * k2v, acc(v + dt / 2 * k2v)
    k4y, k4v = v + dt * k3v, acc(v + dt * k3v)
    ny = y + dt / 6 * (k1y + 2 * k2y + 2 * k3y + k4y)
    nv = v + dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    if ny <= 0 and nv < 0:
        frac = y / (y - ny)
        th = t + frac * dt
        vh = v + frac * (nv - v)
        if t_hit is not None:
            out.append(f"{t_hit!r} {apex!r}")
        t_hit, apex = th, 0.0
        t, y, v = th, 0.0, -c * vh
        continue
    t, y, v = t + dt, ny, nv
    if apex is not None:
        apex = max(apex, y)
print("\n".join(out[:n]))
PY
