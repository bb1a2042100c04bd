import os

# The speed limit measures CPU time (time.process_time() of this process, where the code under test runs),
# which other work on the machine does not inflate, unlike wall-clock time. numpy is held to one thread
# (set before numpy is imported) so that its thread pool cannot add CPU time of its own.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import subprocess
import sys
import warnings

import numpy as np
import pytest
import resource
import time


def cpu_seconds():
    """CPU time of this process and its finished children. Speed limits use it instead of wall-clock
    time, which grows when other work loads the machine."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime

sys.modules["sklearn"] = None
sys.modules["statsmodels"] = None
sys.path.insert(0, "/app")
import logreg  # noqa: E402


def grad(X, y, lam, w, b):
    z = X @ w + b
    p = np.where(z >= 0, 1 / (1 + np.exp(-np.abs(z))), np.exp(-np.abs(z)) / (1 + np.exp(-np.abs(z))))
    return np.concatenate([X.T @ (p - y) / len(y) + lam * w, [np.mean(p - y)]])


def ref_fit(X, y, lam):
    n, d = X.shape
    X1 = np.hstack([X, np.ones((n, 1))])
    th = np.zeros(d + 1)
    R = np.diag(np.r_[np.full(d, lam), 0.0])
    for _ in range(200):
        z = X1 @ th
        p = 0.5 * (1 + np.tanh(z / 2))
        g = X1.T @ (p - y) / n + R @ th
        H = (X1.T * (p * (1 - p))) @ X1 / n + R
        step = np.linalg.solve(H + 1e-12 * np.eye(d + 1), g)
        th = th - step
        if np.max(np.abs(step)) < 1e-13:
            break
    return th[:-1], th[-1]


def data(seed, n, d, scale=1.0, sep=1.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(0, scale, (n, d))
    w = rng.normal(0, sep / scale, d)
    y = (rng.random(n) < 1 / (1 + np.exp(-(X @ w + 0.3)))).astype(float)
    return X, y


def check(X, y, lam):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        w, b = logreg.fit(X, y, lam)
    w = np.asarray(w, dtype=float)
    assert w.shape == (X.shape[1],)
    g = grad(X, y, lam, w, float(b))
    assert np.max(np.abs(g)) < 1e-7, np.max(np.abs(g))
    rw, rb = ref_fit(X, y, lam)
    assert np.allclose(w, rw, atol=1e-5, rtol=1e-5)
    assert float(b) == pytest.approx(rb, abs=1e-5)
    return w, b


def test_easy_problem():
    X, y = data(1, 500, 4)
    check(X, y, 0.01)


def test_unregularised():
    X, y = data(2, 2000, 6, sep=0.5)
    check(X, y, 0.0)


def test_intercept_not_regularised():
    rng = np.random.default_rng(3)
    X = rng.normal(0, 1, (1000, 2))
    y = (rng.random(1000) < 0.9).astype(float)
    w, b = check(X, y, 5.0)
    assert float(b) == pytest.approx(np.log(y.mean() / (1 - y.mean())), abs=0.05)


def test_large_features_nearly_separable():
    X, y = data(4, 3000, 10, scale=40.0, sep=25.0)
    check(X, y, 1e-3)


def test_bigger_problem_is_fast():
    import time
    X, y = data(5, 20000, 30, sep=3.0)
    t = cpu_seconds()
    check(X, y, 1e-4)
    assert cpu_seconds() - t < 20


def test_predict_proba_stable():
    X = np.array([[800.0], [-800.0], [0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        p = np.asarray(logreg.predict_proba(X, np.array([1.0]), 0.0))
    assert np.all(np.isfinite(p))
    assert p[0] == pytest.approx(1.0) and p[1] == pytest.approx(0.0, abs=1e-300) and p[2] == pytest.approx(0.5)
