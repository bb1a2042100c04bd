import csv
import json
import math
import subprocess

import numpy as np
import pytest
from scipy.stats import norm, rankdata
from sklearn.metrics import roc_auc_score

Q = 1.959963984540054


def reference(y, A):
    # midrank formulation (Sun & Xu 2014), an independent route to DeLong's estimator
    pos, neg = A[y == 1], A[y == 0]
    m, n = len(pos), len(neg)
    v10, v01 = [], []
    for k in range(A.shape[1]):
        tz = rankdata(np.concatenate([pos[:, k], neg[:, k]]))
        tx, ty = rankdata(pos[:, k]), rankdata(neg[:, k])
        v10.append((tz[:m] - tx) / n)
        v01.append(1.0 - (tz[m:] - ty) / m)
    v10, v01 = np.array(v10), np.array(v01)
    auc = v10.mean(axis=1)
    S = np.cov(v10) / m + np.cov(v01) / n
    se = np.sqrt(np.diag(S))
    diff = auc[1] - auc[0]
    var_d = S[0, 0] + S[1, 1] - 2 * S[0, 1]
    se_d = math.sqrt(max(var_d, 0.0))
    z = p = None
    if se_d > 1e-15:
        z = diff / se_d
        p = 2 * norm.sf(abs(z))
    ci = [[max(0.0, auc[k] - Q * se[k]), min(1.0, auc[k] + Q * se[k])] for k in range(2)]
    return {"n_pos": m, "n_neg": n, "auc_a": auc[0], "auc_b": auc[1], "se_a": se[0], "se_b": se[1],
            "cov_ab": S[0, 1], "diff": diff, "se_diff": se_d, "z": z, "p_value": p, "ci_a": ci[0], "ci_b": ci[1]}


def run(tmp, y, A):
    with open(tmp / "pred.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["label", "score_a", "score_b"])
        for yi, (a, b) in zip(y, A):
            w.writerow([int(yi), repr(float(a)), repr(float(b))])
    r = subprocess.run(["python3", "/app/compare_auc.py", str(tmp / "pred.csv"), str(tmp / "out.json")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads((tmp / "out.json").read_text())


def check(got, want, keys):
    for k in keys:
        if want[k] is None:
            assert got[k] is None, (k, got[k])
        elif isinstance(want[k], list):
            assert len(got[k]) == 2 and all(abs(g - w) <= 1e-9 for g, w in zip(got[k], want[k])), (k, got[k], want[k])
        else:
            assert got[k] is not None and abs(got[k] - want[k]) <= 1e-9, (k, got[k], want[k])


def gen(seed, n, rounding=None, corr=0.7):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    y[:2], y[2:4] = 1, 0
    base = rng.normal(0.9 * y, 1.0)
    a = corr * base + rng.normal(0, 0.7, n)
    b = corr * base + rng.normal(0.25 * y, 0.6, n)
    if rounding is not None:
        a, b = np.round(a, rounding), np.round(b, rounding)
    return y, np.column_stack([a, b])


@pytest.fixture(scope="module")
def main_case(tmp_path_factory):
    y, A = gen(1357, 900, rounding=1)
    return y, A, run(tmp_path_factory.mktemp("m"), y, A), reference(y, A)


def test_auc_with_ties(main_case):
    y, A, got, want = main_case
    assert (got["n_pos"], got["n_neg"]) == (want["n_pos"], want["n_neg"])
    check(got, want, ["auc_a", "auc_b"])
    assert abs(got["auc_a"] - roc_auc_score(y, A[:, 0])) <= 1e-9


def test_standard_errors_and_covariance(main_case):
    y, A, got, want = main_case
    check(got, want, ["se_a", "se_b", "cov_ab"])


def test_paired_difference_test(main_case):
    y, A, got, want = main_case
    check(got, want, ["diff", "se_diff", "z", "p_value", "ci_a", "ci_b"])


def test_unrounded_scores_other_size(tmp_path):
    y, A = gen(2468, 333, rounding=None, corr=0.9)
    check(run(tmp_path, y, A), reference(y, A), list(reference(y, A)))


def test_heavy_ties_discrete_scores(tmp_path):
    rng = np.random.default_rng(11)
    y = (rng.random(250) < 0.5).astype(int)
    y[:2], y[2:4] = 1, 0
    A = np.column_stack([rng.integers(0, 3, 250) + y, rng.integers(0, 4, 250) + 2 * y]).astype(float)
    want = reference(y, A)
    check(run(tmp_path, y, A), want, list(want))


def test_identical_models_have_no_test(tmp_path):
    y, A = gen(97, 200, rounding=2)
    A[:, 1] = A[:, 0]
    got = run(tmp_path, y, A)
    assert abs(got["se_diff"]) <= 1e-12
    if got["se_diff"] == 0:
        assert got["z"] is None and got["p_value"] is None
    else:  # rounding noise in se_diff: diff is exactly 0 anyway
        assert got["z"] in (None, 0.0) and got["p_value"] in (None, 1.0)
    check(got, reference(y, A), ["auc_a", "auc_b", "se_a", "se_b", "cov_ab", "diff"])


def test_near_perfect_ci_clipped(tmp_path):
    rng = np.random.default_rng(5)
    y = np.array([1] * 12 + [0] * 30)
    a = np.where(y == 1, rng.normal(3, 1, 42), rng.normal(0, 1, 42))
    b = np.where(y == 1, rng.normal(1, 1, 42), rng.normal(0, 1, 42))
    A = np.column_stack([a, b])
    got = run(tmp_path, y, A)
    want = reference(y, A)
    check(got, want, list(want))
    assert got["ci_a"][1] <= 1.0
