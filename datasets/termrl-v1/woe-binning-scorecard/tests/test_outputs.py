import csv
import json
import math
import subprocess

import numpy as np
import pytest


def ref_fit(xs, ys, bins):
    v = np.array([x for x in xs if x is not None])
    cuts = sorted(set(float(c) for c in np.quantile(v, [i / bins for i in range(1, bins)])))

    def which(x):
        for i, c in enumerate(cuts):
            if x <= c:
                return i
        return len(cuts)

    nb = len(cuts) + 1
    miss = any(x is None for x in xs)
    K = nb + miss
    pos, neg = [0] * K, [0] * K
    for x, y in zip(xs, ys):
        b = nb if x is None else which(x)
        (pos if y else neg)[b] += 1
    P, N = sum(pos), sum(neg)
    woe, iv = [], 0.0
    for b in range(K):
        dp, dn = (pos[b] + 0.5) / (P + 0.5 * K), (neg[b] + 0.5) / (N + 0.5 * K)
        woe.append(math.log(dp / dn))
        iv += (dp - dn) * woe[-1]
    model = {"cuts": cuts, "woe": woe[:nb], "woe_missing": woe[nb] if miss else None, "iv": iv}
    return model, lambda x: (model["woe_missing"] or 0.0) if x is None else woe[which(x)]


def write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def fmt(x):
    return "" if x is None else repr(float(x)) if not float(x).is_integer() else str(int(x))


def fit(tmp, xs, ys, bins):
    write(tmp / "train.csv", ["x", "y"], [[fmt(x), y] for x, y in zip(xs, ys)])
    r = subprocess.run(["python3", "/app/woe.py", "fit", str(tmp / "train.csv"), str(bins), str(tmp / "m.json")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads((tmp / "m.json").read_text())


def apply(tmp, xs):
    write(tmp / "in.csv", ["id", "x", "note"], [[i, fmt(x), "n"] for i, x in enumerate(xs)])
    r = subprocess.run(["python3", "/app/woe.py", "apply", str(tmp / "m.json"), str(tmp / "in.csv"),
                        str(tmp / "out.csv")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = (tmp / "out.csv").read_text().split()
    assert lines[0] == "woe" and len(lines) == len(xs) + 1
    return [float(v) for v in lines[1:]]


def same_model(got, want):
    assert len(got["cuts"]) == len(want["cuts"]), (got["cuts"], want["cuts"])
    np.testing.assert_allclose(got["cuts"], want["cuts"], rtol=0, atol=1e-9)
    np.testing.assert_allclose(got["woe"], want["woe"], rtol=0, atol=1e-9)
    if want["woe_missing"] is None:
        assert got["woe_missing"] is None
    else:
        assert abs(got["woe_missing"] - want["woe_missing"]) <= 1e-9
    assert abs(got["iv"] - want["iv"]) <= 1e-9


def gen_int(seed, n, miss=0.06):
    rng = np.random.default_rng(seed)
    x = np.round(rng.lognormal(2.5, 0.8, n)).astype(int)
    y = (rng.random(n) < 1 / (1 + np.exp(-(x - 15) / 6))).astype(int)
    y[0], y[1] = 0, 1
    xs = [None if rng.random() < miss else int(v) for v in x]
    return xs, [int(v) for v in y]


@pytest.fixture(scope="module")
def main_case(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("m")
    xs, ys = gen_int(321, 1500)
    return tmp, xs, ys, fit(tmp, xs, ys, 10)


def test_cut_points_with_ties(main_case):
    tmp, xs, ys, got = main_case
    want, _ = ref_fit(xs, ys, 10)
    np.testing.assert_allclose(got["cuts"], want["cuts"], rtol=0, atol=1e-9)


def test_woe_and_iv(main_case):
    tmp, xs, ys, got = main_case
    same_model(got, ref_fit(xs, ys, 10)[0])


def test_apply_boundaries_range_and_missing(main_case):
    tmp, xs, ys, got = main_case
    want, f = ref_fit(xs, ys, 10)
    new = [None, -5, 0, 10 ** 6] + [c for c in want["cuts"]] + [c + 0.5 for c in want["cuts"]] + xs[:300]
    np.testing.assert_allclose(apply(tmp, new), [f(x) for x in new], rtol=0, atol=1e-9)


def test_no_missing_in_training(tmp_path):
    xs, ys = gen_int(654, 400, miss=0.0)
    got = fit(tmp_path, xs, ys, 5)
    want, f = ref_fit(xs, ys, 5)
    same_model(got, want)
    new = [None, 3, None, 1000, -1]
    np.testing.assert_allclose(apply(tmp_path, new), [f(x) for x in new], rtol=0, atol=1e-9)
    assert apply(tmp_path, [None])[0] == 0.0


def test_continuous_values_other_bins(tmp_path):
    rng = np.random.default_rng(987)
    x = rng.normal(0, 2, 777)
    y = (rng.random(777) < 1 / (1 + np.exp(-x))).astype(int).tolist()
    xs = [None if rng.random() < 0.1 else float(v) for v in x]
    got = fit(tmp_path, xs, y, 7)
    want, f = ref_fit(xs, y, 7)
    same_model(got, want)
    new = [float(v) for v in rng.normal(0, 3, 200)] + [None]
    np.testing.assert_allclose(apply(tmp_path, new), [f(x) for x in new], rtol=0, atol=1e-9)


def test_heavy_ties_collapse_bins(tmp_path):
    xs = [1] * 50 + [2] * 30 + [3] * 5 + [9] * 15 + [None] * 4
    ys = ([0, 1] * 52)[: len(xs)]
    ys[-1] = 1
    got = fit(tmp_path, xs, ys, 10)
    want, f = ref_fit(xs, ys, 10)
    same_model(got, want)
    assert len(got["cuts"]) < 9
    new = [1, 1.5, 2, 2.5, 3, 9, 10, 0, None]
    np.testing.assert_allclose(apply(tmp_path, new), [f(x) for x in new], rtol=0, atol=1e-9)
