#!/bin/bash
set -euo pipefail
cat > /app/gbdt.py <<'PY'
import math


def _sigmoid(z):
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _build(X, g, h, idx, depth, p):
    G = sum(g[i] for i in idx)
    H = sum(h[i] for i in idx)
    lam = p["lam"]
    leaf = {"leaf": -G / (H + lam) * p["eta"]}
    if depth >= p["max_depth"]:
        return leaf
    parent = G * G / (H + lam)
    best = None
    for j in range(len(X[0])):
        order = sorted(idx, key=lambda i: X[i][j])
        GL = HL = 0.0
        for k in range(len(order) - 1):
            i = order[k]
            GL += g[i]
            HL += h[i]
            a, b = X[i][j], X[order[k + 1]][j]
            if a == b:
                continue
            GR, HR = G - GL, H - HL
            if HL < p["min_child_weight"] or HR < p["min_child_weight"]:
                continue
            gain = 0.5 * (GL * GL / (HL + lam) + GR * GR / (HR + lam) - parent) - p["gamma"]
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, j, (a + b) / 2)
    if best is None:
        return leaf
    _, j, t = best
    li = [i for i in idx if X[i][j] <= t]
    ri = [i for i in idx if X[i][j] > t]
    return {"feature": j, "threshold": t, "left": _build(X, g, h, li, depth + 1, p),
            "right": _build(X, g, h, ri, depth + 1, p)}


def _tree_value(t, x):
    while "leaf" not in t:
        t = t["left"] if x[t["feature"]] <= t["threshold"] else t["right"]
    return t["leaf"]


def fit(X, y, objective="binary", n_estimators=20, max_depth=3, eta=0.3, lam=1.0, gamma=0.0, min_child_weight=1.0):
    X = [[float(v) for v in r] for r in X]
    y = [float(v) for v in y]
    n = len(y)
    if objective == "binary":
        m = sum(y) / n
        base = math.log(m / (1 - m))
    else:
        base = sum(y) / n
    p = {"max_depth": max_depth, "eta": eta, "lam": lam, "gamma": gamma, "min_child_weight": min_child_weight}
    F = [base] * n
    trees = []
    for _ in range(n_estimators):
        if objective == "binary":
            pr = [_sigmoid(f) for f in F]
            g = [pr[i] - y[i] for i in range(n)]
            h = [pr[i] * (1 - pr[i]) for i in range(n)]
        else:
            g = [F[i] - y[i] for i in range(n)]
            h = [1.0] * n
        t = _build(X, g, h, list(range(n)), 0, p)
        trees.append(t)
        for i in range(n):
            F[i] += _tree_value(t, X[i])
    return {"objective": objective, "base_score": base, "trees": trees}


def predict(model, X):
    out = []
    for r in X:
        f = model["base_score"] + sum(_tree_value(t, [float(v) for v in r]) for t in model["trees"])
        out.append(_sigmoid(f) if model["objective"] == "binary" else f)
    return out


def to_dict(model):
    return model
PY
