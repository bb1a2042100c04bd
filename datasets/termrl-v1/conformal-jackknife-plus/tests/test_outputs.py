import csv
import math
import subprocess

import numpy as np
import pytest


def gen(seed, n, p, nt=40, noise="normal", collinear=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(0, 1, (n + nt, p)) * rng.uniform(0.5, 3, p) + rng.normal(0, 2, p)
    if collinear and p >= 2:
        X[:, 1] = X[:, 0] * 2 + 1e-3 * rng.normal(0, 1, n + nt)
    beta = rng.normal(0, 1.5, p)
    e = rng.standard_t(3, n + nt) if noise == "t" else rng.normal(0, 1, n + nt)
    y = 1.0 + X @ beta + e * (1 + 0.5 * np.abs(X[:, 0]))
    X, y = np.round(X, 4), np.round(y, 4)
    return X[:n], y[:n], X[n:]


def write(tmp, X, y, Xt, names):
    with open(tmp / "train.csv", "w", newline="") as f:
        w = csv.writer(f)
        cols = list(names)
        yi = len(cols) // 2
        w.writerow(cols[:yi] + ["y"] + cols[yi:])
        for xr, yv in zip(X, y):
            xs = [repr(float(v)) for v in xr]
            w.writerow(xs[:yi] + [repr(float(yv))] + xs[yi:])
    with open(tmp / "test.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(list(reversed(names)))
        for xr in Xt:
            w.writerow([repr(float(v)) for v in reversed(xr)])


def fit(X, y, lam):
    n, p = X.shape
    A = np.hstack([np.ones((n, 1)), X])
    pen = np.diag([0.0] + [lam] * p)
    return np.linalg.solve(A.T @ A + pen, A.T @ y)


def pred(w, X):
    return np.hstack([np.ones((len(X), 1)), X]) @ w


def order_stat(vals, k):
    if k <= 0:
        return -math.inf
    if k > len(vals):
        return math.inf
    return sorted(vals)[k - 1]


def reference(X, y, Xt, alpha, lam):
    n = len(y)
    h = n // 2
    w = fit(X[:h], y[:h], lam)
    cal = np.abs(y[h:] - pred(w, X[h:]))
    q = order_stat(list(cal), math.ceil((1 - alpha) * (len(cal) + 1)))
    mu = pred(w, Xt)
    split = [(m - q, m + q) for m in mu]
    loo = [fit(np.delete(X, i, 0), np.delete(y, i), lam) for i in range(n)]
    R = [abs(y[i] - pred(loo[i], X[i:i + 1])[0]) for i in range(n)]
    P = np.array([pred(loo[i], Xt) for i in range(n)])  # (n, nt)
    kl, ku = math.floor(alpha * (n + 1)), math.ceil((1 - alpha) * (n + 1))
    jk = [(order_stat(list(P[:, t] - R), kl), order_stat(list(P[:, t] + R), ku)) for t in range(len(Xt))]
    folds = [i % 5 for i in range(n)]
    fw = {f: fit(X[[i for i in range(n) if folds[i] != f]], y[[i for i in range(n) if folds[i] != f]], lam)
          for f in set(folds)}
    Rc = [abs(y[i] - pred(fw[folds[i]], X[i:i + 1])[0]) for i in range(n)]
    Pc = np.array([pred(fw[folds[i]], Xt) for i in range(n)])
    cv = [(order_stat(list(Pc[:, t] - Rc), kl), order_stat(list(Pc[:, t] + Rc), ku)) for t in range(len(Xt))]
    return [s + j + c for s, j, c in zip(split, jk, cv)]


def run(tmp, X, y, Xt, alpha, lam, names=None):
    names = names or [f"x{i}" for i in range(X.shape[1])]
    write(tmp, X, y, Xt, names)
    r = subprocess.run(["python3", "/app/conformal.py", str(tmp / "train.csv"), str(tmp / "test.csv"), str(alpha),
                        str(lam), str(tmp / "out.csv")], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    with open(tmp / "out.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["split_lo", "split_hi", "jk_lo", "jk_hi", "cv_lo", "cv_hi"]
    return [[float(v) for v in r] for r in rows[1:]]


def check(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        for a, b in zip(g, w):
            if math.isinf(b):
                assert a == b, (g, w)
            else:
                assert abs(a - b) <= 1e-6 * max(1.0, abs(b)), (g, w)


def test_basic(tmp_path):
    X, y, Xt = gen(1, 120, 4)
    check(run(tmp_path, X, y, Xt, 0.1, 1.0), reference(X, y, Xt, 0.1, 1.0))


def test_heavy_tails_other_alpha(tmp_path):
    X, y, Xt = gen(2, 203, 6, noise="t")
    check(run(tmp_path, X, y, Xt, 0.05, 3.5), reference(X, y, Xt, 0.05, 3.5))


def test_small_sample_infinite_bounds(tmp_path):
    X, y, Xt = gen(3, 17, 2, nt=10)
    want = reference(X, y, Xt, 0.05, 0.5)
    assert any(math.isinf(v) for r in want for v in r)
    check(run(tmp_path, X, y, Xt, 0.05, 0.5), want)


def test_odd_n_and_folds_of_unequal_size(tmp_path):
    X, y, Xt = gen(4, 63, 3)
    check(run(tmp_path, X, y, Xt, 0.2, 0.0), reference(X, y, Xt, 0.2, 0.0))


def test_collinear_features_need_the_penalty(tmp_path):
    X, y, Xt = gen(5, 150, 5, collinear=True)
    check(run(tmp_path, X, y, Xt, 0.1, 10.0), reference(X, y, Xt, 0.1, 10.0))


def test_column_names_and_order(tmp_path):
    X, y, Xt = gen(6, 90, 3)
    names = ["income (k)", "Age", "z_score"]
    check(run(tmp_path, X, y, Xt, 0.15, 2.0, names=names), reference(X, y, Xt, 0.15, 2.0))


def test_larger_sample(tmp_path):
    X, y, Xt = gen(7, 900, 8, nt=60)
    check(run(tmp_path, X, y, Xt, 0.1, 5.0), reference(X, y, Xt, 0.1, 5.0))
