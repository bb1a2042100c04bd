import sys

import numpy as np
import pytest

sys.modules["sklearn"] = None
sys.path.insert(0, "/app")
import pca  # noqa: E402


def ref(X, k):
    mean = X.mean(axis=0)
    C = np.cov(X, rowvar=False)
    vals, vecs = np.linalg.eigh(C)
    order = np.argsort(vals)[::-1][:k]
    comps = vecs[:, order].T
    for c in comps:
        j = np.argmax(np.abs(c))
        if c[j] < 0:
            c *= -1
    return mean, comps, vals[order], vals[order] / np.trace(C)


def data(seed, n, d):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(d, d)) * np.linspace(3, 0.2, d)
    return rng.normal(size=(n, d)) @ A + rng.normal(5, 2, d)


@pytest.mark.parametrize("seed,n,d,k", [(1, 200, 5, 2), (2, 500, 8, 8), (3, 60, 3, 1), (4, 1000, 12, 4)])
def test_fit_matches(seed, n, d, k):
    X = data(seed, n, d)
    m = pca.fit(X, k)
    mean, comps, var, ratio = ref(X, k)
    assert np.allclose(m["mean"], mean)
    assert np.asarray(m["components"]).shape == (k, d)
    assert np.allclose(m["components"], comps, atol=1e-8)
    assert np.allclose(m["explained_variance"], var, rtol=1e-8)
    assert np.allclose(m["explained_variance_ratio"], ratio, rtol=1e-8)


def test_transform():
    X = data(5, 300, 6)
    m = pca.fit(X, 3)
    mean, comps, _, _ = ref(X, 3)
    Z = data(6, 20, 6)
    assert np.allclose(pca.transform(m, Z), (Z - mean) @ comps.T, atol=1e-8)


def test_components_orthonormal():
    X = data(7, 400, 7)
    C = np.asarray(pca.fit(X, 7)["components"])
    assert np.allclose(C @ C.T, np.eye(7), atol=1e-10)


def test_sign_convention_on_axis_data():
    X = np.array([[-2.0, 0.0], [2.0, 0.0], [0.0, -1.0], [0.0, 1.0], [-4.0, 0.1], [4.0, -0.1]])
    C = np.asarray(pca.fit(X, 2)["components"])
    for row in C:
        assert row[np.argmax(np.abs(row))] > 0
