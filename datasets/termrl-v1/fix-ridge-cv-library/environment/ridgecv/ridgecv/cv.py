import numpy as np

from .pipeline import Pipeline
from .preprocess import Standardizer


def kfold(n, k, seed):
    perm = np.random.default_rng(seed).permutation(n)
    size = n // k
    return [perm[i * size:(i + 1) * size] for i in range(k)]


def cross_val_mse(X, y, alpha, k, seed):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    scaler = Standardizer().fit(X)
    errors = []
    last = None
    for test in kfold(len(X), k, seed):
        train = np.setdiff1d(np.arange(len(X)), test)
        last = Pipeline(alpha, scaler).fit(X[train], y[train])
        errors.append((last.predict(X[test]) - y[test]) ** 2)
    return float(np.concatenate(errors).mean()), last


def select_alpha(X, y, alphas, k, seed):
    scores = {}
    best = None
    for a in alphas:
        mse, model = cross_val_mse(X, y, a, k, seed)
        scores[a] = mse
        if best is None or mse < best[1] or (mse == best[1] and a > best[0]):
            best = (a, mse, model)
    return best[0], scores, best[2]
