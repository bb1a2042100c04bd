#!/bin/bash
set -euo pipefail
# Maximises the ordinary (ML) likelihood instead of the restricted one: variances biased low, wrong loglik.
cat > /app/lmm_fit.py <<'PY'
import csv
import json
import math
import sys

import numpy as np
from scipy.optimize import minimize_scalar


def load(path):
    with open(path, newline="") as f:
        r = csv.reader(f)
        header = [h.strip() for h in next(r)]
        rows = [row for row in r if row]
    gi, yi = header.index("group"), header.index("y")
    covs = [h for i, h in enumerate(header) if i not in (gi, yi)]
    ci = [header.index(c) for c in covs]
    groups = [row[gi] for row in rows]
    y = np.array([float(row[yi]) for row in rows])
    X = np.column_stack([np.ones(len(rows))] + [[float(row[i]) for row in rows] for i in ci])
    return covs, groups, y, X


class Profile:
    def __init__(self, groups, y, X):
        self.names = sorted(set(groups), key=groups.index)
        idx = {g: k for k, g in enumerate(self.names)}
        gid = np.array([idx[g] for g in groups])
        G = len(self.names)
        self.n_i = np.bincount(gid, minlength=G).astype(float)
        self.XtX = X.T @ X
        self.Xty = X.T @ y
        self.yty = y @ y
        self.sX = np.zeros((G, X.shape[1]))
        np.add.at(self.sX, gid, X)
        self.sy = np.bincount(gid, weights=y, minlength=G)
        self.n, self.p = X.shape
        self.gid, self.X, self.y = gid, X, y

    def solve(self, g):
        w = g / (1 + self.n_i * g)
        M = self.XtX - (self.sX * w[:, None]).T @ self.sX
        b = self.Xty - (self.sX * (w * self.sy)[:, None]).sum(axis=0)
        beta = np.linalg.solve(M, b)
        r = self.y - self.X @ beta
        sr = np.bincount(self.gid, weights=r, minlength=len(self.n_i))
        Q = r @ r - (w * sr * sr).sum()
        return beta, M, Q, sr

    def reml(self, g):
        beta, M, Q, _ = self.solve(g)
        s2 = Q / self.n
        return -0.5 * (self.n * (math.log(2 * math.pi) + math.log(s2) + 1) + np.log1p(self.n_i * g).sum())


def fit(path):
    covs, groups, y, X = load(path)
    P = Profile(groups, y, X)
    res = minimize_scalar(lambda t: -P.reml(math.exp(t)), bounds=(-40, 12), method="bounded",
                          options={"xatol": 1e-13, "maxiter": 2000})
    g = math.exp(res.x)
    if P.reml(0.0) >= P.reml(g) - 1e-12:
        g = 0.0
    beta, M, Q, sr = P.solve(g)
    s2e = Q / P.n
    s2u = g * s2e
    cov = s2e * np.linalg.inv(M)
    blup = (s2u / (s2e + P.n_i * s2u)) * sr
    return {"covariates": covs, "beta": beta.tolist(), "se": np.sqrt(np.diag(cov)).tolist(),
            "sigma2_u": s2u, "sigma2_e": s2e, "reml_loglik": P.reml(g),
            "blup": {n: float(v) for n, v in zip(P.names, blup)}}


if __name__ == "__main__":
    json.dump(fit(sys.argv[1]), open(sys.argv[2], "w"), indent=1)
PY
