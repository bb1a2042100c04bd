#!/bin/bash
set -euo pipefail
# Pools the strata: one risk set per event time over all rows (stratum ignored).
cat > /app/coxph.py <<'PY'
import csv
import json
import math
import sys

import numpy as np


def load(path):
    with open(path, newline="") as f:
        r = csv.reader(f)
        header = [h.strip() for h in next(r)]
        rows = [row for row in r if row]
    idx = {h: i for i, h in enumerate(header)}
    covs = [h for h in header if h not in ("start", "stop", "event", "stratum")]
    start = np.array([float(row[idx["start"]]) for row in rows])
    stop = np.array([float(row[idx["stop"]]) for row in rows])
    event = np.array([int(float(row[idx["event"]])) for row in rows])
    strat = ["" for row in rows]
    X = np.array([[float(row[idx[c]]) for c in covs] for row in rows], dtype=float).reshape(len(rows), len(covs))
    return covs, start, stop, event, strat, X


def event_groups(start, stop, event, strat):
    strat = np.array(strat, dtype=object)
    groups = []
    for s in sorted(set(strat.tolist())):
        m = strat == s
        for t in np.unique(stop[m & (event == 1)]):
            risk = m & (start < t) & (stop >= t)
            dead = m & (stop == t) & (event == 1)
            groups.append((np.flatnonzero(risk), np.flatnonzero(dead)))
    return groups


def partial(beta, X, groups):
    p = X.shape[1]
    eta = X @ beta
    r = np.exp(eta)
    ll, g, H = 0.0, np.zeros(p), np.zeros((p, p))
    for risk, dead in groups:
        Xr, rr = X[risk], r[risk]
        S0, S1, S2 = rr.sum(), rr @ Xr, (Xr * rr[:, None]).T @ Xr
        Xd, rd = X[dead], r[dead]
        D0, D1, D2 = rd.sum(), rd @ Xd, (Xd * rd[:, None]).T @ Xd
        d = len(dead)
        ll += eta[dead].sum()
        g += Xd.sum(axis=0)
        for l in range(d):
            f = l / d
            s0, s1, s2 = S0 - f * D0, S1 - f * D1, S2 - f * D2
            ll -= math.log(s0)
            g -= s1 / s0
            H += s2 / s0 - np.outer(s1, s1) / s0 ** 2
    return ll, g, H


def main(src, dst):
    covs, start, stop, event, strat, X = load(src)
    groups = event_groups(start, stop, event, strat)
    beta = np.zeros(X.shape[1])
    ll, g, H = partial(beta, X, groups)
    ll0 = ll
    for _ in range(200):
        step = np.linalg.solve(H, g)
        for _ in range(60):
            nb = beta + step
            nll, ng, nH = partial(nb, X, groups)
            if nll >= ll - 1e-12:
                break
            step = step / 2
        done = abs(nll - ll) < 1e-13 * max(1.0, abs(ll)) and np.max(np.abs(step)) < 1e-11
        beta, ll, g, H = nb, nll, ng, nH
        if done:
            break
    se = np.sqrt(np.diag(np.linalg.inv(H)))
    out = {"covariates": covs, "coef": [float(v) for v in beta], "se": [float(v) for v in se],
           "loglik_null": float(ll0), "loglik": float(ll), "n": int(len(stop)), "events": int(event.sum())}
    with open(dst, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
PY
