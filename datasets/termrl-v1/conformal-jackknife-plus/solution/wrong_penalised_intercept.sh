#!/bin/bash
set -euo pipefail
# Penalises the intercept together with the slopes.
cat > /app/conformal.py <<'PY'
import csv
import math
import sys

import numpy as np


def read(path, cols=None):
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        rows = list(r)
        header = r.fieldnames
    return header, rows


def ridge(X, y, lam):
    A = np.column_stack([np.ones(len(X)), X])
    P = lam * np.eye(A.shape[1])
    return np.linalg.solve(A.T @ A + P, A.T @ y)


def predict(w, X):
    return w[0] + X @ w[1:]


def kth(values, k):
    """k-th smallest (1-based) of each row; k outside 1..n gives -inf / +inf."""
    n = values.shape[1]
    if k < 1:
        return np.full(values.shape[0], -math.inf)
    if k > n:
        return np.full(values.shape[0], math.inf)
    return np.sort(values, axis=1)[:, k - 1]


def plus_intervals(mus, R, alpha):
    n = len(R)
    lo = kth(mus - R[None, :], math.floor(alpha * (n + 1)))
    hi = kth(mus + R[None, :], math.ceil((1 - alpha) * (n + 1)))
    return lo, hi


def main(train_path, test_path, alpha, lam, out_path):
    alpha, lam = float(alpha), float(lam)
    header, rows = read(train_path)
    feats = [h for h in header if h != "y"]
    X = np.array([[float(r[c]) for c in feats] for r in rows]).reshape(len(rows), len(feats))
    y = np.array([float(r["y"]) for r in rows])
    _, trows = read(test_path)
    Xt = np.array([[float(r[c]) for c in feats] for r in trows]).reshape(len(trows), len(feats))
    n = len(y)
    # split conformal
    h = n // 2
    w = ridge(X[:h], y[:h], lam)
    R = np.abs(y[h:] - predict(w, X[h:]))
    m = len(R)
    k = math.ceil((1 - alpha) * (m + 1))
    q = math.inf if k > m else np.sort(R)[k - 1]
    mu = predict(w, Xt)
    s_lo, s_hi = mu - q, mu + q
    # jackknife+
    mus = np.zeros((len(Xt), n))
    Rj = np.zeros(n)
    for i in range(n):
        keep = np.arange(n) != i
        wi = ridge(X[keep], y[keep], lam)
        Rj[i] = abs(y[i] - predict(wi, X[i:i + 1])[0])
        mus[:, i] = predict(wi, Xt)
    j_lo, j_hi = plus_intervals(mus, Rj, alpha)
    # CV+ with 5 folds, fold = row index mod 5
    fold = np.arange(n) % 5
    musc = np.zeros((len(Xt), n))
    Rc = np.zeros(n)
    for f in range(5):
        te = fold == f
        if not te.any():
            continue
        wf = ridge(X[~te], y[~te], lam)
        Rc[te] = np.abs(y[te] - predict(wf, X[te]))
        musc[:, te] = predict(wf, Xt)[:, None]
    c_lo, c_hi = plus_intervals(musc, Rc, alpha)
    with open(out_path, "w") as f:
        f.write("split_lo,split_hi,jk_lo,jk_hi,cv_lo,cv_hi\n")
        for row in zip(s_lo, s_hi, j_lo, j_hi, c_lo, c_hi):
            f.write(",".join(repr(float(v)) for v in row) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:6])
PY
