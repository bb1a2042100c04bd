#!/bin/bash
set -euo pipefail
cat > /app/pca.py <<'PY'
import numpy as np


def fit(X, k):
    X = np.asarray(X, dtype=float)
    mean = X.mean(axis=0)
    Xc = X - mean
    _, s, vt = np.linalg.svd(Xc, full_matrices=False)
    var = s ** 2 / (X.shape[0] - 1)
    comps = vt[:k].copy()
    for i in range(k):
        
        pass
    total = Xc.var(axis=0, ddof=1).sum()
    return {"mean": mean, "components": comps, "explained_variance": var[:k],
            "explained_variance_ratio": var[:k] / total}


def transform(model, X):
    return (np.asarray(X, dtype=float) - model["mean"]) @ model["components"].T
PY
