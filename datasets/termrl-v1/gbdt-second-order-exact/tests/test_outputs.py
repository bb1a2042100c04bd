import os

# The speed limit measures CPU time (time.process_time() of this process, where the code under test runs),
# which other work on the machine does not inflate, unlike wall-clock time. numpy is held to one thread
# (set before numpy is imported) so that its thread pool cannot add CPU time of its own.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import json
import math
import random
import sys
import time

import pytest
import resource


def cpu_seconds():
    """CPU time of this process and its finished children. Speed limits use it instead of wall-clock
    time, which grows when other work loads the machine."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime

sys.path.insert(0, "/tests")
import gb_ref  # noqa: E402

for m in ("sklearn", "xgboost", "lightgbm"):
    sys.modules[m] = None
sys.path.insert(0, "/app")
import gbdt  # noqa: E402


def data(seed, n, d, kind):
    rng = random.Random(seed)
    X = [[round(rng.gauss(0, 1), rng.choice([1, 2, 6])) for _ in range(d)] for _ in range(n)]
    if kind == "binary":
        y = [1 if rng.random() < 1 / (1 + math.exp(-(2 * r[0] - r[1] * r[1 % d] + (r[2 % d] > 0.5)))) else 0 for r in X]
    else:
        y = [3 * r[0] + math.sin(3 * r[1 % d]) + rng.gauss(0, 0.3) for r in X]
    return X, y


def same_tree(a, b, path="root"):
    if "leaf" in b:
        assert "leaf" in a, f"{path}: expected a leaf"
        assert a["leaf"] == pytest.approx(b["leaf"], rel=1e-7, abs=1e-10), path
        return
    assert "leaf" not in a, f"{path}: expected a split"
    assert a["feature"] == b["feature"], path
    assert a["threshold"] == pytest.approx(b["threshold"], rel=1e-12, abs=1e-12), path
    same_tree(a["left"], b["left"], path + ".L")
    same_tree(a["right"], b["right"], path + ".R")


CASES = [
    ("binary", 1, 300, 3, dict(n_estimators=10, max_depth=2, eta=0.3, lam=1.0)),
    ("binary", 2, 400, 5, dict(n_estimators=15, max_depth=3, eta=0.1, lam=0.5, gamma=0.05, min_child_weight=2.0)),
    ("squared", 3, 300, 4, dict(objective="squared", n_estimators=12, max_depth=3, eta=0.2, lam=2.0)),
    ("squared", 4, 250, 2, dict(objective="squared", n_estimators=8, max_depth=4, eta=0.5, lam=0.0, gamma=1.0, min_child_weight=5)),
]


@pytest.mark.parametrize("kind,seed,n,d,params", CASES)
def test_structure(kind, seed, n, d, params):
    X, y = data(seed, n, d, kind)
    got = json.loads(json.dumps(gbdt.to_dict(gbdt.fit(X, y, **params))))
    exp = gb_ref.fit(X, y, **params)
    assert got["objective"] == exp["objective"]
    assert got["base_score"] == pytest.approx(exp["base_score"], rel=1e-12)
    assert len(got["trees"]) == len(exp["trees"])
    for k, (a, b) in enumerate(zip(got["trees"], exp["trees"])):
        same_tree(a, b, f"tree{k}")


@pytest.mark.parametrize("kind,seed,n,d,params", CASES)
def test_predictions(kind, seed, n, d, params):
    X, y = data(seed, n, d, kind)
    Xt, _ = data(seed + 100, 200, d, kind)
    got = list(map(float, gbdt.predict(gbdt.fit(X, y, **params), Xt)))
    exp = gb_ref.predict(gb_ref.fit(X, y, **params), Xt)
    assert got == pytest.approx(exp, rel=1e-7, abs=1e-9)


def test_defaults_and_speed():
    X, y = data(9, 600, 6, "binary")
    t = cpu_seconds()
    model = gbdt.fit(X, y, n_estimators=30, max_depth=4)
    assert cpu_seconds() - t < 30
    exp = gb_ref.fit(X, y, n_estimators=30, max_depth=4)
    assert list(map(float, gbdt.predict(model, X[:50]))) == pytest.approx(gb_ref.predict(exp, X[:50]), rel=1e-7)
