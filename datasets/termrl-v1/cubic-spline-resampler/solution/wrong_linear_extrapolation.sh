#!/bin/bash
# Mistake: extrapolates linearly with the end slope instead of extending the end cubic pieces.
set -euo pipefail
cat > /app/spline.py <<'PY'
import argparse
import bisect
import csv
import sys

NEED = {"natural": 2, "clamped": 2, "not-a-knot": 4, "periodic": 3}


def fail(msg):
    print(msg, file=sys.stderr)
    sys.exit(2)


def solve(A, b):
    n = len(b)
    A = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(A[r][c]))
        A[c], A[p] = A[p], A[c]
        for r in range(c + 1, n):
            f = A[r][c] / A[c][c]
            if f:
                for k in range(c, n + 1):
                    A[r][k] -= f * A[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (A[r][n] - sum(A[r][k] * x[k] for k in range(r + 1, n))) / A[r][r]
    return x


def second_derivatives(xs, ys, kind, slopes):
    n = len(xs)
    h = [xs[i + 1] - xs[i] for i in range(n - 1)]
    sl = [(ys[i + 1] - ys[i]) / h[i] for i in range(n - 1)]
    A = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for i in range(1, n - 1):
        A[i][i - 1], A[i][i], A[i][i + 1] = h[i - 1], 2 * (h[i - 1] + h[i]), h[i]
        b[i] = 6 * (sl[i] - sl[i - 1])
    if kind == "natural":
        A[0][0] = A[n - 1][n - 1] = 1.0
    elif kind == "clamped":
        a, z = slopes
        A[0][0], A[0][1], b[0] = 2 * h[0], h[0], 6 * (sl[0] - a)
        A[n - 1][n - 2], A[n - 1][n - 1], b[n - 1] = h[-1], 2 * h[-1], 6 * (z - sl[-1])
    elif kind == "not-a-knot":
        A[0][0], A[0][1], A[0][2] = h[1], -(h[0] + h[1]), h[0]
        A[n - 1][n - 3], A[n - 1][n - 2], A[n - 1][n - 1] = h[-1], -(h[-2] + h[-1]), h[-2]
    else:  # periodic: M0 = M_{n-1}; s'(x0) = s'(x_{n-1})
        A[0][0], A[0][n - 1] = 1.0, -1.0
        row = [0.0] * n
        row[0] += -2 * h[0] / 6
        row[1] += -h[0] / 6
        row[n - 2] -= h[-1] / 6
        row[n - 1] -= 2 * h[-1] / 6
        A[n - 1], b[n - 1] = row, sl[-1] - sl[0]
    return solve(A, b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("samples")
    ap.add_argument("queries")
    ap.add_argument("--bc", required=True)
    ap.add_argument("--slopes")
    a = ap.parse_args()
    if a.bc not in NEED:
        fail(f"unknown --bc {a.bc!r}; use one of {', '.join(NEED)}")
    with open(a.samples) as fh:
        pts = sorted((float(r["x"]), float(r["y"])) for r in csv.DictReader(fh))
    if len(pts) < NEED[a.bc]:
        fail(f"--bc {a.bc} needs at least {NEED[a.bc]} samples, got {len(pts)}")
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    slopes = None
    if a.bc == "clamped":
        if not a.slopes:
            fail("--bc clamped needs --slopes A,B")
        slopes = [float(v) for v in a.slopes.split(",")]
    if a.bc == "periodic" and ys[0] != ys[-1]:
        fail("--bc periodic needs equal y at the first and last sample")
    M = second_derivatives(xs, ys, a.bc, slopes)
    coef, cum = [], [0.0]
    for i in range(len(xs) - 1):
        h = xs[i + 1] - xs[i]
        c = (ys[i], (ys[i + 1] - ys[i]) / h - h * (2 * M[i] + M[i + 1]) / 6, M[i] / 2, (M[i + 1] - M[i]) / (6 * h))
        coef.append(c)
        cum.append(cum[-1] + c[0] * h + c[1] * h ** 2 / 2 + c[2] * h ** 3 / 3 + c[3] * h ** 4 / 4)
    out = []
    with open(a.queries) as fh:
        for line in fh:
            if not line.strip():
                continue
            x = float(line)
            i = min(max(bisect.bisect_right(xs, x) - 1, 0), len(xs) - 2)
            c0, c1, c2, c3 = coef[i]
            t = x - xs[i]
            if x < xs[0] or x > xs[-1]:
                # extend linearly with the end slope
                e = 0 if x < xs[0] else len(xs) - 1
                te = 0.0 if e == 0 else xs[-1] - xs[i]
                y_e = c0 + te * (c1 + te * (c2 + te * c3))
                d_e = c1 + te * (2 * c2 + te * 3 * c3)
                a_e = cum[i] + c0 * te + c1 * te ** 2 / 2 + c2 * te ** 3 / 3 + c3 * te ** 4 / 4
                u = x - xs[e]
                out.append(f"{y_e + d_e * u!r},{d_e!r},{a_e + y_e * u + d_e * u * u / 2!r}")
                continue
            s = c0 + t * (c1 + t * (c2 + t * c3))
            ds = c1 + t * (2 * c2 + t * 3 * c3)
            area = cum[i] + c0 * t + c1 * t ** 2 / 2 + c2 * t ** 3 / 3 + c3 * t ** 4 / 4
            out.append(f"{s!r},{ds!r},{area!r}")
    print("\n".join(out))


main()
PY
