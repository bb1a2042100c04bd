#!/bin/bash
set -euo pipefail
cat > /app/bounce.py <<'PY'
"""Bouncing ball with quadratic air drag (closed-form flight phases).

Usage: python3 bounce.py H0 K C N
"""
import math
import sys

G = 9.81


def fall(h, k):
    """Time and speed of a fall from rest through height h."""
    if k == 0:
        t = math.sqrt(2 * h / G)
        return t, G * t
    vt = math.sqrt(G / k)
    # y = h - ln(cosh(sqrt(g k) t)) / k   ->   cosh(s) = exp(k h)
    kh = k * h
    s = math.acosh(math.exp(kh)) if kh < 700 else kh + math.log(2)
    if kh < 1e-6:   # acosh(exp(x)) loses accuracy for tiny x: solve ln(cosh(s)) = kh by Newton
        s = math.sqrt(2 * kh)
        for _ in range(5):
            f = math.log1p(2 * math.sinh(s / 2) ** 2) - kh
            s -= f / math.tanh(s)
    t = s / math.sqrt(G * k)
    return t, vt * math.tanh(s)


def rise(v, k):
    """Time to apex and apex height for an upward launch with speed v."""
    if k == 0:
        return v / G, v * v / (2 * G)
    vt = math.sqrt(G / k)
    t = math.atan(v / vt) / math.sqrt(G * k)
    h = math.log1p(k * v * v / G) / (2 * k)
    return t, h


def main():
    h0, k, c, n = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    t, v = fall(h0, k)
    out = []
    for _ in range(n):
        v *= c
        tr, h = rise(v, k)
        tf, vf = fall(h, k)
        out.append(f"{t!r} {h!r}")
        t += tr + tf
        v = vf
    print("\n".join(out))


main()
PY
python3 /app/bounce.py 10 0.05 0.8 3
