#!/bin/bash
set -euo pipefail
cat > /app/ratings.py <<'PY'
import csv
import json
import math
import sys

import numpy as np


def components(teams, pairs):
    parent = {t: t for t in teams}

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    return {t: find(t) for t in teams}


def read_matches(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return [(r["home"], r["away"], r["result"], r.get("neutral", "0") == "1") for r in rows]


def design(matches, idx, T):
    m = len(matches)
    P = T + 2  # ratings..., theta, log nu
    xh = np.zeros((m, P))
    xa = np.zeros((m, P))
    xd = np.zeros((m, P))
    res = np.zeros(m, dtype=int)
    for k, (h, a, r, neutral) in enumerate(matches):
        xh[k, idx[h]] += 1
        if not neutral:
            xh[k, T] += 1
        xa[k, idx[a]] += 1
        xd[k] = 0.5 * (xh[k] + xa[k])
        xd[k, T + 1] += 1
        res[k] = {"H": 0, "D": 1, "A": 2}[r]
    return np.stack([xh, xd, xa], axis=1), res  # (m, 3, P)


def loglik(w, Xs, res):
    eta = Xs @ w  # (m, 3)
    mx = eta.max(axis=1, keepdims=True)
    lse = mx[:, 0] + np.log(np.exp(eta - mx).sum(axis=1))
    p = np.exp(eta - lse[:, None])
    ll = float((eta[np.arange(len(res)), res] - lse).sum())
    Xobs = Xs[np.arange(len(res)), res]  # (m, P)
    Xbar = np.einsum("mk,mkp->mp", p, Xs)
    g = (Xobs - Xbar).sum(axis=0)
    second = np.einsum("mk,mkp,mkq->pq", p, Xs, Xs)
    H = second - Xbar.T @ Xbar
    return ll, g, H  # H = information (negative Hessian)


def fit(matches):
    teams = sorted({t for h, a, _, _ in matches for t in (h, a)})
    idx = {t: i for i, t in enumerate(teams)}
    T = len(teams)
    comp = components(teams, [(h, a) for h, a, _, _ in matches])
    roots = sorted(set(comp.values()))
    Xs, res = design(matches, idx, T)
    w = np.zeros(T + 2)

    def center(w):
        for r in roots:
            members = [idx[t] for t in teams if comp[t] == r]
            w[members] -= w[members].mean()
        return w

    ll, g, H = loglik(w, Xs, res)
    for _ in range(200):
        step = np.linalg.pinv(H, rcond=1e-12, hermitian=True) @ g
        t = 1.0
        while True:
            nw = center(w + t * step)
            nll, ng, nH = loglik(nw, Xs, res)
            if nll >= ll - 1e-12 or t < 1e-10:
                break
            t /= 2
        done = abs(nll - ll) < 1e-14 * max(1.0, abs(ll)) and np.max(np.abs(t * step)) < 1e-11
        w, ll, g, H = nw, nll, ng, nH
        if done:
            break
    cov = np.linalg.pinv(H, rcond=1e-12, hermitian=True)
    se = np.sqrt(np.maximum(np.diag(cov), 0))
    return teams, idx, comp, w, se, ll, len(roots)


def main(matches_path, fixtures_path, out_path):
    matches = read_matches(matches_path)
    teams, idx, comp, w, se, ll, ncomp = fit(matches)
    T = len(teams)
    out = {"ratings": {t: {"rating": float(w[idx[t]]), "se": float(se[idx[t]])} for t in teams},
           "home_advantage": float(w[T]), "home_advantage_se": float(se[T]),
           "draw_nu": float(math.exp(w[T + 1])), "loglik": ll, "components": ncomp, "predictions": []}
    with open(fixtures_path, newline="") as f:
        for r in csv.DictReader(f):
            h, a, neutral = r["home"], r["away"], r.get("neutral", "0") == "1"
            if h not in idx or a not in idx or comp[h] != comp[a]:
                out["predictions"].append(None)
                continue
            eh = w[idx[h]] + (0.0 if neutral else w[T])
            ea = w[idx[a]]
            ed = w[T + 1] + 0.5 * (eh + ea)
            e = np.array([eh, ed, ea])
            p = np.exp(e - e.max())
            p /= p.sum()
            out["predictions"].append({"home": float(p[0]), "draw": float(p[1]), "away": float(p[2])})
    with open(out_path, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
PY
