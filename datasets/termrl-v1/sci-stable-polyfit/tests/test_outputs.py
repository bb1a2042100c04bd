import sys
from fractions import Fraction

import numpy as np
import pytest

sys.path.insert(0, "/app")
from fitlib.poly import fit  # noqa: E402


def exact_fit_values(x, y, deg, w, at):
    """Exact weighted least squares in a shifted monomial basis with Fractions; returns values at `at`."""
    X = [Fraction(v) for v in x]
    c0 = X[0]
    T = [v - c0 for v in X]
    Y = [Fraction(v) for v in y]
    W = [Fraction(v) for v in w]
    n = deg + 1
    A = [[sum(Wi * Ti ** (i + j) for Wi, Ti in zip(W, T)) for j in range(n)] for i in range(n)]
    b = [sum(Wi * Ti ** i * Yi for Wi, Ti, Yi in zip(W, T, Y)) for i in range(n)]
    for col in range(n):
        piv = next(r for r in range(col, n) if A[r][col] != 0)
        A[col], A[piv] = A[piv], A[col]
        b[col], b[piv] = b[piv], b[col]
        for r in range(n):
            if r != col and A[r][col] != 0:
                f = A[r][col] / A[col][col]
                A[r] = [a - f * p for a, p in zip(A[r], A[col])]
                b[r] -= f * b[col]
    coef = [b[i] / A[i][i] for i in range(n)]
    out = []
    for v in at:
        t = Fraction(v) - c0
        out.append(float(sum(c * t ** i for i, c in enumerate(coef))))
    return np.array(out)


def check(x, y, deg, w=None, extra=10):
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    wl = np.ones_like(x) if w is None else np.asarray(w, float)
    at = np.concatenate([x[:: max(1, len(x) // 25)], np.linspace(x.min(), x.max(), extra)])
    want = exact_fit_values(x, y, deg, wl, at)
    model = fit(x, y, deg) if w is None else fit(x, y, deg, w)
    got = np.asarray(model.predict(list(at)), float)
    assert got.shape == want.shape
    tol = 1e-7 * max(1.0, float(np.max(np.abs(y))))
    assert np.max(np.abs(got - want)) <= tol, np.max(np.abs(got - want))


def test_simple_quadratic():
    x = np.arange(10.0)
    y = 3 * x ** 2 - 2 * x + 1
    check(x, y, 2)


def test_offset_calibration_data():
    rng = np.random.default_rng(1)
    x = np.sort(rng.uniform(1000, 1010, 200))
    y = np.sin(x / 3) * 50 + rng.normal(0, 0.1, x.size)
    check(x, y, 6)
    check(x, y, 11)


def test_high_degree():
    rng = np.random.default_rng(2)
    x = np.linspace(-3, 7, 120)
    y = np.exp(0.4 * x) + rng.normal(0, 0.01, x.size)
    check(x, y, 12)
    check(x, y, 15)


def test_huge_clustered_values_with_weights():
    rng = np.random.default_rng(3)
    x = 1e6 + np.sort(rng.uniform(0, 1, 60))
    y = 5 + 2 * (x - 1e6) - 7 * (x - 1e6) ** 3 + rng.normal(0, 1e-3, x.size)
    w = rng.uniform(0.1, 10, x.size)
    check(x, y, 4, w)
    check(x, y, 7, w)


def test_weights_matter():
    x = np.arange(8.0)
    y = np.array([0, 1, 0, 1, 0, 1, 0, 10.0])
    w = np.array([1, 1, 1, 1, 1, 1, 1, 1e-3])
    check(x, y, 1, w)
    a = fit(x, y, 1, w).predict([7.0])[0]
    b = fit(x, y, 1).predict([7.0])[0]
    assert abs(a - b) > 1.0


def test_too_few_distinct_points():
    with pytest.raises(ValueError):
        fit([1.0, 1.0, 2.0, 2.0], [1.0, 2.0, 3.0, 4.0], 2)
