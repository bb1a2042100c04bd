import csv
import random
import sys

import pytest

sys.path.insert(0, "/tests")
import cart_ref  # noqa: E402

sys.modules["sklearn"] = None
sys.path.insert(0, "/app")
import cart  # noqa: E402


def dataset(seed, n, d, k, integer=True):
    rng = random.Random(seed)
    X, y = [], []
    for _ in range(n):
        c = rng.randrange(k)
        row = []
        for j in range(d):
            v = rng.gauss(c * (j % 3) * 0.7, 1.5)
            row.append(float(round(v)) if integer else round(v, 2))
        X.append(row)
        y.append(c)
    return X, y


def rows():
    r = list(csv.reader(open("/app/iris_like.csv")))[1:]
    return [list(map(float, x[:3])) for x in r], [int(x[3]) for x in r]


def test_example_export():
    X, y = rows()
    got = cart.export(cart.fit(X, y, 3, min_samples_leaf=2))
    assert got == cart_ref.export(cart_ref.fit(X, y, 3, min_samples_leaf=2))


@pytest.mark.parametrize("seed,n,d,k,depth,mss,msl,integer", [
    (1, 120, 3, 2, 4, 2, 1, True),
    (2, 200, 5, 3, 6, 10, 3, True),
    (3, 150, 4, 4, 3, 2, 1, False),
    (4, 300, 6, 3, 8, 2, 5, True),
    (5, 80, 2, 2, 10, 2, 1, True),
])
def test_export_matches(seed, n, d, k, depth, mss, msl, integer):
    X, y = dataset(seed, n, d, k, integer)
    got = cart.export(cart.fit(X, y, depth, min_samples_split=mss, min_samples_leaf=msl))
    exp = cart_ref.export(cart_ref.fit(X, y, depth, min_samples_split=mss, min_samples_leaf=msl))
    assert got == exp


def test_predict_matches():
    X, y = dataset(7, 250, 4, 3)
    Xt, _ = dataset(8, 100, 4, 3)
    Xt += [[0.5, 0.5, 0.5, 0.5], [-100.0] * 4, [100.0] * 4]
    got = [int(v) for v in cart.predict(cart.fit(X, y, 5, min_samples_leaf=2), Xt)]
    assert got == cart_ref.predict(cart_ref.fit(X, y, 5, min_samples_leaf=2), Xt)


def test_pure_and_tied_leaves():
    X = [[1.0], [1.0], [2.0], [2.0], [3.0], [3.0]]
    y = [1, 0, 1, 0, 2, 2]
    assert cart.export(cart.fit(X, y, 5)) == (
        "[X0 <= 2.5] n=6 counts=[2, 2, 2]\n"
        "  leaf n=4 counts=[2, 2, 0] -> 0\n"
        "  leaf n=2 counts=[0, 0, 2] -> 2\n")


def test_depth_zero_and_constant_features():
    X = [[5.0, 1.0]] * 6
    y = [0, 1, 1, 0, 1, 1]
    assert cart.export(cart.fit(X, y, 3)) == "leaf n=6 counts=[2, 4] -> 1\n"
    X2, y2 = dataset(9, 40, 2, 2)
    assert cart.export(cart.fit(X2, y2, 0)) == cart_ref.export(cart_ref.fit(X2, y2, 0))
