import csv
import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, "/tests")
import rake_ref  # noqa: E402

ROWS, W, EST, SE, DEFF = rake_ref.full()
CFG = json.load(open("/app/margins.json"))


@pytest.fixture(scope="module")
def weights():
    rows = list(csv.DictReader(open("/app/weights.csv")))
    assert [r["resp_id"] for r in rows] == [r["resp_id"] for r in ROWS]
    return np.array([float(r["weight"]) for r in rows])


@pytest.fixture(scope="module")
def out():
    return json.loads(Path("/app/estimates.json").read_text())


def test_weights_hit_margins(weights):
    N = CFG["population"]
    assert weights.sum() == pytest.approx(N, rel=1e-8)
    for var, cats in CFG["margins"].items():
        col = np.array([r[var] for r in ROWS])
        for c, p in cats.items():
            assert weights[col == c].sum() / N == pytest.approx(p, abs=1e-8), (var, c)


def test_weights_trimmed_and_match(weights):
    cap = CFG["trim_factor"] * CFG["population"] / len(ROWS)
    assert weights.max() <= cap * (1 + 1e-6)
    assert np.allclose(weights, W, rtol=1e-6)


def test_point_estimates(out):
    assert sorted(out["estimates"]) == sorted(EST)
    for k, v in EST.items():
        assert out["estimates"][k] == pytest.approx(v, rel=1e-6), k


def test_jackknife_standard_errors(out):
    assert sorted(out["standard_errors"]) == sorted(SE)
    for k, v in SE.items():
        assert out["standard_errors"][k] == pytest.approx(v, rel=1e-4), k


def test_design_effect(out):
    assert out["design_effect"] == pytest.approx(DEFF, rel=1e-6)
