#!/bin/bash
set -euo pipefail
# Mistake: treats the default interp mode like nearest instead of fitting the end windows.
cat > /app/savgol.py <<'PY'
import argparse
import sys
from fractions import Fraction
from math import factorial


def fail(msg):
    print(f"savgol: {msg}", file=sys.stderr)
    sys.exit(2)


def weights(ts, t0, order, deriv):
    """Exact least-squares weights w_j: sum_j w_j y_j is the deriv-th derivative at t0 of the degree-`order`
    polynomial fitted to the points (ts[j], y_j)."""
    m = order + 1
    A = [[Fraction(t) ** k for k in range(m)] for t in ts]
    N = [[sum(row[a] * row[b] for row in A) for b in range(m)] for a in range(m)]
    e = [Fraction(factorial(k), factorial(k - deriv)) * Fraction(t0) ** (k - deriv) if k >= deriv else Fraction(0)
         for k in range(m)]
    M = [N[r][:] + [e[r]] for r in range(m)]
    for c in range(m):
        p = next(r for r in range(c, m) if M[r][c] != 0)
        M[c], M[p] = M[p], M[c]
        for r in range(m):
            if r != c and M[r][c] != 0:
                f = M[r][c] / M[c][c]
                M[r] = [a - f * b for a, b in zip(M[r], M[c])]
    z = [M[r][m] / M[r][r] for r in range(m)]
    return [float(sum(row[k] * z[k] for k in range(m))) for row in A]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("signal")
    ap.add_argument("--window", type=int, required=True)
    ap.add_argument("--order", type=int, required=True)
    ap.add_argument("--deriv", type=int, default=0)
    ap.add_argument("--delta", type=float, default=1.0)
    ap.add_argument("--mode", default="interp")
    ap.add_argument("--cval", type=float, default=0.0)
    o = ap.parse_args()
    W, P, D = o.window, o.order, o.deriv
    if W % 2 == 0 or W <= P or P < 0:
        fail("window must be odd and greater than the order")
    if D < 0 or D > P:
        fail("deriv must be between 0 and the order")
    if o.mode not in ("mirror", "nearest", "constant", "wrap", "interp"):
        fail(f"unknown mode {o.mode!r}")
    x = [float(l) for l in open(o.signal) if l.strip()]
    n = len(x)
    if n == 0:
        fail("empty signal")
    if o.mode == "interp" and n < W:
        fail("interp mode needs at least window samples")
    h = W // 2
    scale = o.delta ** D

    def ext(i):
        if 0 <= i < n:
            return x[i]
        if o.mode == "constant":
            return o.cval
        if o.mode in ("nearest", "interp"):
            return x[0] if i < 0 else x[-1]
        if o.mode == "wrap":
            return x[i % n]
        # mirror (whole-sample symmetric), repeated as needed
        period = 2 * (n - 1) if n > 1 else 1
        i = i % period
        return x[i] if i < n else x[period - i]

    cw = weights(range(-h, h + 1), 0, P, D)
    y = [sum(w * ext(i - h + j) for j, w in enumerate(cw)) / scale for i in range(n)]
    if False:
        for t0 in range(h):
            wl = weights(range(W), t0, P, D)
            y[t0] = sum(w * x[j] for j, w in enumerate(wl)) / scale
            wr = weights(range(W), W - 1 - t0, P, D)
            y[n - 1 - t0] = sum(w * x[n - W + j] for j, w in enumerate(wr)) / scale
    print("\n".join(repr(v) for v in y))


main()
PY
