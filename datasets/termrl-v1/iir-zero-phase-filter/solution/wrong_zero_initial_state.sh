#!/bin/bash
set -euo pipefail
# Mistake: filtfilt starts both passes from a zero state instead of the scaled steady state.
cat > /app/filt.py <<'PY'
import argparse
import json
import sys


def fail(msg):
    print(f"filt: {msg}", file=sys.stderr)
    sys.exit(2)


def norm(b, a):
    n = max(len(a), len(b))
    a0 = a[0]
    b = [v / a0 for v in b] + [0.0] * (n - len(b))
    a = [v / a0 for v in a] + [0.0] * (n - len(a))
    return b, a


def lfilter(b, a, x, z=None):
    n = len(a)
    z = list(z) if z is not None else [0.0] * (n - 1)
    y = []
    for xv in x:
        yv = b[0] * xv + (z[0] if n > 1 else 0.0)
        for i in range(n - 2):
            z[i] = b[i + 1] * xv + z[i + 1] - a[i + 1] * yv
        if n > 1:
            z[n - 2] = b[n - 1] * xv - a[n - 1] * yv
        y.append(yv)
    return y


def steady_state(b, a):
    n = len(a)
    if n == 1:
        return []
    g = sum(b) / sum(a)
    z = [0.0] * (n - 1)
    z[n - 2] = b[n - 1] - a[n - 1] * g
    for i in range(n - 3, -1, -1):
        z[i] = b[i + 1] - a[i + 1] * g + z[i + 1]
    return z


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("coeffs")
    ap.add_argument("signal")
    ap.add_argument("--mode", default="lfilter")
    o = ap.parse_args()
    if o.mode not in ("lfilter", "filtfilt"):
        fail(f"unknown --mode {o.mode!r}")
    c = json.load(open(o.coeffs))
    b, a = [float(v) for v in c["b"]], [float(v) for v in c["a"]]
    if not a or a[0] == 0:
        fail("a[0] must be non-zero")
    x = [float(l) for l in open(o.signal) if l.strip()]
    if not x:
        fail("empty signal")
    padlen = 3 * max(len(a), len(b))
    b, a = norm(b, a)
    if o.mode == "lfilter":
        y = lfilter(b, a, x)
    else:
        if len(x) <= padlen:
            fail(f"signal needs more than {padlen} samples for filtfilt")
        ext = ([2 * x[0] - x[k] for k in range(padlen, 0, -1)] + x +
               [2 * x[-1] - x[-1 - k] for k in range(1, padlen + 1)])
        zi = steady_state(b, a)
        y = lfilter(b, a, ext)
        y = y[::-1]
        y = lfilter(b, a, y)[::-1]
        y = y[padlen:len(y) - padlen]
    print("\n".join(repr(v) for v in y))


main()
PY
