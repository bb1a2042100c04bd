import csv
import json
import math

import numpy as np
import pytest
from scipy import stats


def fit():
    rows = []
    for r in csv.DictReader(open("/app/housing.csv")):
        try:
            price, sqft = float(r["price"]), float(r["sqft"])
        except ValueError:
            continue
        rows.append((price, sqft, float(r["bedrooms"]), float(r["age"]), r["neighborhood"].lower()))
    levels = sorted({r[4] for r in rows})
    names = ["const", "sqft", "bedrooms", "age"] + ["nb_" + l for l in levels[1:]]
    X = np.array([[1, r[1], r[2], r[3]] + [float(r[4] == l) for l in levels[1:]] for r in rows])
    y = np.log([r[0] for r in rows])
    b, *_ = np.linalg.lstsq(X, y, rcond=None)
    e = y - X @ b
    n, k = X.shape
    inv = np.linalg.inv(X.T @ X)
    se = np.sqrt(np.diag(inv) * (e @ e) / (n - k))
    meat = X.T @ np.diag(e ** 2) @ X
    hc1 = np.sqrt(np.diag(inv @ meat @ inv) * n / (n - k))
    r2 = 1 - (e @ e) / ((y - y.mean()) @ (y - y.mean()))
    return dict(names=names, b=b, se=se, hc1=hc1, n=n, k=k, r2=r2, levels=levels)


F = fit()


@pytest.fixture(scope="module")
def out():
    return json.load(open("/app/ols.json"))


def test_sample(out):
    assert out["n"] == F["n"]
    assert out["df_resid"] == F["n"] - F["k"]


def test_coefficients(out):
    assert sorted(out["coef"]) == sorted(F["names"])
    for nm, v in zip(F["names"], F["b"]):
        assert out["coef"][nm] == pytest.approx(v, rel=1e-6, abs=1e-10), nm


def test_inference(out):
    dfr = F["n"] - F["k"]
    for nm, b, s in zip(F["names"], F["b"], F["se"]):
        assert out["se"][nm] == pytest.approx(s, rel=1e-6), nm
        assert out["t"][nm] == pytest.approx(b / s, rel=1e-6), nm
        assert out["p"][nm] == pytest.approx(2 * stats.t.sf(abs(b / s), dfr), rel=1e-4, abs=1e-300), nm


def test_fit_statistics(out):
    n, k, r2 = F["n"], F["k"], F["r2"]
    assert out["r2"] == pytest.approx(r2, rel=1e-8)
    assert out["adj_r2"] == pytest.approx(1 - (1 - r2) * (n - 1) / (n - k), rel=1e-8)
    f = (r2 / (k - 1)) / ((1 - r2) / (n - k))
    assert out["f_stat"] == pytest.approx(f, rel=1e-6)
    assert out["f_p"] == pytest.approx(stats.f.sf(f, k - 1, n - k), rel=1e-3, abs=1e-300)


def test_hc1(out):
    for nm, v in zip(F["names"], F["hc1"]):
        assert out["hc1_se"][nm] == pytest.approx(v, rel=1e-6), nm


def test_predictions(out):
    def x(sqft, bed, age, nb):
        return np.array([1, sqft, bed, age] + [float(nb == l) for l in F["levels"][1:]])
    exp = [math.exp(x(1500, 3, 20, "hills") @ F["b"]), math.exp(x(900, 2, 60, "riverside") @ F["b"])]
    assert out["predictions"] == pytest.approx(exp, rel=1e-6)
