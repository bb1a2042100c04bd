#!/bin/bash
set -euo pipefail
cat > /app/cart.py <<'PY'
from fractions import Fraction


def _counts(ys, k):
    c = [0] * k
    for y in ys:
        c[y] += 1
    return c


def _score(c):
    n = sum(c)
    return Fraction(sum(x * x for x in c), n)


def fit(X, y, max_depth, min_samples_split=2, min_samples_leaf=1):
    X = [list(map(float, r)) for r in X]
    y = [int(v) for v in y]
    k = max(y) + 1

    def build(idx, depth):
        ys = [y[i] for i in idx]
        c = _counts(ys, k)
        node = {"n": len(idx), "counts": c}
        if depth >= max_depth or len(idx) < min_samples_split or max(c) == len(idx):
            return node
        parent = _score(c)
        best = None
        for j in range(len(X[0])):
            vals = sorted({X[i][j] for i in idx})
            order = sorted(idx, key=lambda i: X[i][j])
            left = [0] * k
            p = 0
            for a, b in zip(vals, vals[1:]):
                while p < len(order) and X[order[p]][j] <= a:
                    left[y[order[p]]] += 1
                    p += 1
                nl = p
                nr = len(idx) - nl
                if nl < min_samples_leaf or nr < min_samples_leaf:
                    continue
                right = [c[t] - left[t] for t in range(k)]
                s = float(_score(left) + _score(right))
                if s > parent and (best is None or s >= best[0]):
                    best = (s, j, (a + b) / 2)
        if best is None:
            return node
        _, j, thr = best
        li = [i for i in idx if X[i][j] <= thr]
        ri = [i for i in idx if X[i][j] > thr]
        node.update(feature=j, threshold=thr, left=build(li, depth + 1), right=build(ri, depth + 1))
        return node

    return build(list(range(len(y))), 0)


def _leaf_class(node):
    c = node["counts"]
    return c.index(max(c))


def predict(tree, X):
    out = []
    for r in X:
        node = tree
        while "feature" in node:
            node = node["left"] if float(r[node["feature"]]) <= node["threshold"] else node["right"]
        out.append(_leaf_class(node))
    return out


def export(tree):
    lines = []

    def walk(node, depth):
        pad = "  " * depth
        if "feature" in node:
            lines.append(f"{pad}[X{node['feature']} <= {node['threshold']!r}] n={node['n']} counts={node['counts']}")
            walk(node["left"], depth + 1)
            walk(node["right"], depth + 1)
        else:
            lines.append(f"{pad}leaf n={node['n']} counts={node['counts']} -> {_leaf_class(node)}")

    walk(tree, 0)
    return "\n".join(lines) + "\n"
PY
