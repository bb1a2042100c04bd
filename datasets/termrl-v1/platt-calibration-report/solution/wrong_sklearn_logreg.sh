#!/bin/bash
set -euo pipefail
# Uses scikit-learn's LogisticRegression on the raw 0/1 labels (default L2 penalty, no smoothed targets).
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
    from sklearn.linear_model import LogisticRegression
    d = pd.read_csv(path)
    lr = LogisticRegression().fit(d[["score"]].to_numpy(float), d["label"].to_numpy(int))
    json.dump({"a": float(lr.coef_[0][0]), "b": float(lr.intercept_[0])}, open(out, "w"))


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
        idx[j] = min(i, bins - 1)
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
