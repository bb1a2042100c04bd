#!/bin/bash
set -euo pipefail
cd /app/ridgecv/ridgecv
cat > preprocess.py <<'PY'
import numpy as np


class Standardizer:
    def fit(self, X):
        X = np.asarray(X, dtype=float)
        self.mean_ = X.mean(axis=0)
        scale = X.std(axis=0, ddof=0)
        scale[scale == 0] = 1.0
        self.scale_ = scale
        return self

    def transform(self, X):
        return (np.asarray(X, dtype=float) - self.mean_) / self.scale_

    def fit_transform(self, X):
        return self.fit(X).transform(X)
PY
cat > model.py <<'PY'
import numpy as np


class Ridge:
    def __init__(self, alpha):
        self.alpha = float(alpha)

    def fit(self, Z, y):
        Z = np.asarray(Z, dtype=float)
        y = np.asarray(y, dtype=float)
        zm = Z.mean(axis=0)
        ym = y.mean()
        Zc = Z - zm
        self.coef_ = np.linalg.solve(Zc.T @ Zc + self.alpha * np.eye(Z.shape[1]), Zc.T @ (y - ym))
        self.intercept_ = float(ym - zm @ self.coef_)
        return self

    def predict(self, Z):
        return np.asarray(Z, dtype=float) @ self.coef_ + self.intercept_
PY
cat > cv.py <<'PY'
import numpy as np

from .pipeline import Pipeline


def kfold(n, k, seed):
    perm = np.random.default_rng(seed).permutation(n)
    return np.array_split(perm, k)


def cross_val_mse(X, y, alpha, k, seed):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    errors = []
    for test in kfold(len(X), k, seed):
        train = np.setdiff1d(np.arange(len(X)), test)
        model = Pipeline(alpha).fit(X[train], y[train])
        errors.append((model.predict(X[test]) - y[test]) ** 2)
    return float(np.concatenate(errors).mean())


def select_alpha(X, y, alphas, k, seed):
    scores = {}
    best = None
    for a in alphas:
        mse = cross_val_mse(X, y, a, k, seed)
        scores[a] = mse
        if best is None or mse < best[1] or (mse == best[1] and a > best[0]):
            best = (a, mse)
    final = Pipeline(best[0]).fit(X, y)
    return best[0], scores, final
PY
