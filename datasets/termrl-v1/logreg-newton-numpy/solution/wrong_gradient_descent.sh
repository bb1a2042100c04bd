#!/bin/bash
set -euo pipefail
# Plain gradient descent with a fixed step: fine on easy data, not converged on hard data.
cat > /app/logreg.py <<'PY'
import numpy as np


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-np.clip(z, -500, 500)))


def fit(X, y, lam, lr=0.1, iters=3000):
    X = np.asarray(X, float)
    y = np.asarray(y, float)
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    for _ in range(iters):
        p = _sigmoid(X @ w + b)
        w -= lr * (X.T @ (p - y) / n + lam * w)
        b -= lr * float(np.mean(p - y))
    return w, b


def predict_proba(X, w, b):
    return _sigmoid(np.asarray(X, float) @ w + b)
PY
