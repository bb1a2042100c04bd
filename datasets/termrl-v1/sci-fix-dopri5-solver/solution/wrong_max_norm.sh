#!/bin/bash
# Plausible but wrong: everything fixed except the error norm, left as the max norm (a common choice, but
# not the README's RMS norm), so step counts differ on systems.
# Otherwise: tableau a53 = 64448/6561 (was 64448/6651); RMS error norm (was the max norm); the first stage is
# taken over from stage 7 only after an accepted step; the step growth is capped at 5x; output times are
# ordered and filtered in the direction of integration, so t1 < t0 works.
set -euo pipefail
cat > /app/odekit/solver.py <<'PY'
"""Dormand-Prince 5(4) explicit Runge-Kutta solver with adaptive steps (see README.md)."""
import numpy as np

C = np.array([0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1])
A = [
    [],
    [1 / 5],
    [3 / 40, 9 / 40],
    [44 / 45, -56 / 15, 32 / 9],
    [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
    [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
    [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84],
]
B5 = np.array([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0])
B4 = np.array([5179 / 57600, 0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40])

SAFETY, MIN_FACTOR, MAX_FACTOR = 0.9, 0.2, 5.0


class Result:
    def __init__(self, t, y, nfev, naccept, nreject):
        self.t, self.y, self.nfev, self.naccept, self.nreject = t, y, nfev, naccept, nreject


def rms_norm(x):
    return float(np.sqrt(np.mean(x * x)))


def initial_step(f, t0, y0, f0, direction, rtol, atol):
    scale = atol + rtol * np.abs(y0)
    d0, d1 = rms_norm(y0 / scale), rms_norm(f0 / scale)
    h0 = 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
    y1 = y0 + direction * h0 * f0
    f1 = f(t0 + direction * h0, y1)
    d2 = rms_norm((f1 - f0) / scale) / h0
    if max(d1, d2) <= 1e-15:
        h1 = max(1e-6, h0 * 1e-3)
    else:
        h1 = (0.01 / max(d1, d2)) ** (1 / 5)
    return min(100 * h0, h1)


def solve(f, t0, t1, y0, rtol=1e-6, atol=1e-9, t_eval=None):
    y = np.atleast_1d(np.asarray(y0, dtype=float)).copy()
    t = float(t0)
    direction = 1.0 if t1 >= t0 else -1.0
    targets = sorted(t_eval if t_eval is not None else [t1], key=lambda s: direction * s)
    targets = [s for s in targets if direction * (s - t0) >= 0]
    out_t, out_y = [], []
    while targets and targets[0] == t:
        out_t.append(t)
        out_y.append(y.copy())
        targets.pop(0)
    k1 = np.asarray(f(t, y), dtype=float)
    nfev = 1
    h = initial_step(f, t, y, k1, direction, rtol, atol)
    nfev += 1
    naccept = nreject = 0
    while targets:
        goal = targets[0]
        h = min(h, abs(goal - t))
        K = [k1]
        for s in range(1, 7):
            ys = y + direction * h * sum(a * k for a, k in zip(A[s], K))
            K.append(np.asarray(f(t + direction * h * C[s], ys), dtype=float))
        nfev += 6
        Kstack = np.array(K)
        y5 = y + direction * h * (B5 @ Kstack)
        y4 = y + direction * h * (B4 @ Kstack)
        scale = atol + rtol * np.maximum(np.abs(y), np.abs(y5))
        err = float(np.max(np.abs((y5 - y4) / scale)))
        if err <= 1.0:
            t_new = goal if h == abs(goal - t) else t + direction * h
            t, y, k1 = t_new, y5, K[6]
            naccept += 1
            if t == goal:
                out_t.append(t)
                out_y.append(y.copy())
                targets.pop(0)
            factor = MAX_FACTOR if err == 0 else min(MAX_FACTOR, SAFETY * err ** (-1 / 5))
            h *= factor
        else:
            nreject += 1
            h *= max(MIN_FACTOR, SAFETY * err ** (-1 / 5))
    return Result(np.array(out_t), np.array(out_y), nfev, naccept, nreject)
PY
