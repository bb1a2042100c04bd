#!/bin/bash
set -euo pipefail
cat > /app/logreg.py <<'PY'
import numpy as np


def _sigmoid(z):
    out = np.empty_like(z, dtype=float)
    pos = z >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-z[pos]))
    ez = np.exp(z[~pos])
    out[~pos] = ez / (1.0 + ez)
    return out


def _objective(X1, y, lam, theta):
    z = X1 @ theta
    # log(1+exp(z)) - y z, stable
    loss = np.mean(np.logaddexp(0.0, z) - y * z)
    return loss + 0.5 * lam * np.dot(theta[:-1], theta[:-1])


def fit(X, y, lam, max_iter=100):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    n, d = X.shape
    X1 = np.hstack([X, np.ones((n, 1))])
    theta = np.zeros(d + 1)
    reg = np.full(d + 1, lam)
    reg[-1] = 0.0
    for _ in range(max_iter):
        p = _sigmoid(X1 @ theta)
        g = X1.T @ (p - y) / n + reg * theta
        if np.max(np.abs(g)) < 1e-10:
            break
        wts = p * (1 - p)
        H = (X1.T * wts) @ X1 / n + np.diag(reg) + 1e-12 * np.eye(d + 1)
        step = np.linalg.solve(H, g)
        t = 1.0
        f0 = _objective(X1, y, lam, theta)
        while t > 1e-10:
            cand = theta - t * step
            if _objective(X1, y, lam, cand) <= f0 - 1e-4 * t * np.dot(g, step):
                break
            t *= 0.5
        theta = cand
    return theta[:-1].copy(), float(theta[-1])


def predict_proba(X, w, b):
    return _sigmoid(np.asarray(X, dtype=float) @ np.asarray(w, dtype=float) + b)
PY
