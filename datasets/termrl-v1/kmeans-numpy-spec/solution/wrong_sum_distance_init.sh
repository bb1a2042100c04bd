#!/bin/bash
set -euo pipefail
cat > /app/kmeans.py <<'PY'
import argparse
import json

import numpy as np


def _assign(X, C):
    d = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
    return np.argmin(d, axis=1)


def farthest_init(X, k):
    X = np.asarray(X, dtype=float)
    chosen = [0]
    mind = ((X - X[0]) ** 2).sum(axis=1)
    while len(chosen) < k:
        i = int(np.argmax(mind))
        chosen.append(i)
        mind = mind + ((X - X[i]) ** 2).sum(axis=1)
    return X[chosen].copy()


def kmeans(X, init, max_iter=100):
    X = np.asarray(X, dtype=float)
    C = np.array(init, dtype=float, copy=True)
    labels = _assign(X, C)
    n_iter = 0
    while n_iter < max_iter:
        for j in range(len(C)):
            m = labels == j
            if m.any():
                C[j] = X[m].mean(axis=0)
        n_iter += 1
        new = _assign(X, C)
        changed = bool((new != labels).any())
        labels = new
        if not changed:
            break
    inertia = float(((X - C[labels]) ** 2).sum())
    return C, labels.astype(int), n_iter, inertia


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("k", type=int)
    ap.add_argument("output")
    ap.add_argument("--max-iter", type=int, default=100)
    a = ap.parse_args()
    X = np.loadtxt(a.input, delimiter=",", skiprows=1, ndmin=2)
    C, labels, n_iter, inertia = kmeans(X, farthest_init(X, a.k), a.max_iter)
    with open(a.output, "w") as f:
        json.dump({"centroids": C.tolist(), "labels": [int(v) for v in labels],
                   "n_iter": int(n_iter), "inertia": inertia}, f)


if __name__ == "__main__":
    main()
PY
