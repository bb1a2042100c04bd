import json
import math
import subprocess

import numpy as np
import pytest


def sh(*args):
    r = subprocess.run(["python3", "/app/calib.py", *map(str, args)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]


def write_scores(path, s, y=None):
    with open(path, "w") as f:
        f.write("score,label\n" if y is not None else "score\n")
        for i, v in enumerate(s):
            f.write(repr(float(v)) + ("," + str(int(y[i])) if y is not None else "") + "\n")


def ref_fit(s, y):
    s = np.asarray(s, float)
    n1, n0 = int(np.sum(y == 1)), int(np.sum(y == 0))
    t = np.where(y == 1, (n1 + 1) / (n1 + 2), 1 / (n0 + 2))
    w = np.zeros(2)
    X = np.column_stack([s, np.ones_like(s)])

    def f(w):
        z = X @ w
        return np.sum(np.logaddexp(0, z) - t * z)

    for _ in range(500):
        z = X @ w
        p = 0.5 * (1 + np.tanh(z / 2))
        g = X.T @ (p - t)
        H = X.T @ (X * (p * (1 - p))[:, None])
        d = np.linalg.solve(H, g)
        lam = 1.0
        while f(w - lam * d) > f(w) and lam > 1e-12:
            lam /= 2
        w = w - lam * d
        if np.max(np.abs(lam * d)) < 1e-14 * (1 + np.max(np.abs(w))):
            break
    return w


def ref_report(p, y, bins):
    p = np.asarray(p, float)
    y = np.asarray(y, float)
    q = np.clip(p, 1e-15, 1 - 1e-15)
    out = {"n": len(p), "brier": float(np.mean((p - y) ** 2)),
           "log_loss": float(np.mean(-(y * np.log(q) + (1 - y) * np.log(1 - q))))}
    table, ece, mce = [], 0.0, 0.0
    for i in range(bins):
        lo, hi = i / bins, (i + 1) / bins
        m = (p >= lo) & ((p < hi) | ((i == bins - 1) & (p == 1.0)))
        c = int(m.sum())
        mp = fp = None
        if c:
            mp, fp = float(p[m].mean()), float(y[m].mean())
            ece += c / len(p) * abs(fp - mp)
            mce = max(mce, abs(fp - mp))
        table.append({"lo": lo, "hi": hi, "count": c, "mean_prob": mp, "frac_pos": fp})
    out.update(ece=ece, mce=mce, bins=table)
    return out


def check_report(got, want):
    assert got["n"] == want["n"]
    for k in ("brier", "log_loss", "ece", "mce"):
        assert abs(got[k] - want[k]) <= 1e-9, (k, got[k], want[k])
    assert len(got["bins"]) == len(want["bins"])
    for g, w in zip(got["bins"], want["bins"]):
        assert g["count"] == w["count"], (g, w)
        assert abs(g["lo"] - w["lo"]) <= 1e-12 and abs(g["hi"] - w["hi"]) <= 1e-12
        for k in ("mean_prob", "frac_pos"):
            if w[k] is None:
                assert g[k] is None, (g, w)
            else:
                assert abs(g[k] - w[k]) <= 1e-9, (k, g, w)


def close(got, want):
    return abs(got - want) <= 1e-4 * max(1.0, abs(want))


def fit_case(tmp_path, s, y):
    write_scores(tmp_path / "s.csv", s, y)
    sh("fit", tmp_path / "s.csv", tmp_path / "m.json")
    m = json.loads((tmp_path / "m.json").read_text())
    a, b = ref_fit(np.asarray(s), np.asarray(y))
    assert close(m["a"], a) and close(m["b"], b), (m, a, b)
    return m


def test_fit_matches_exact_minimiser(tmp_path):
    rng = np.random.default_rng(1234)
    y = (rng.random(3000) < 0.15).astype(int)
    s = rng.normal(np.where(y == 1, 2.0, -1.0), 1.7) * 4.0 - 3.0
    fit_case(tmp_path, s, y)


def test_fit_small_sample_uses_smoothed_targets(tmp_path):
    s = np.array([-2.0, -1.0, -0.5, 0.3, 0.1, 0.9, 1.5, 2.5, -0.2, 0.7])
    y = np.array([0, 0, 1, 0, 0, 1, 1, 1, 0, 0])
    fit_case(tmp_path, s, y)


def test_fit_perfectly_separated_is_finite(tmp_path):
    rng = np.random.default_rng(99)
    s = np.concatenate([rng.uniform(-9, -1, 40), rng.uniform(1, 9, 25)])
    y = np.array([0] * 40 + [1] * 25)
    m = fit_case(tmp_path, s, y)
    assert math.isfinite(m["a"]) and m["a"] > 0


def test_apply_in_order_and_overflow_safe(tmp_path):
    (tmp_path / "m.json").write_text(json.dumps({"a": 0.8, "b": -1.3}))
    rng = np.random.default_rng(7)
    s = np.concatenate([rng.normal(0, 5, 500), [1e6, -1e6, 2e3, -2e3, 0.0]])
    y = (rng.random(len(s)) < 0.5).astype(int)
    write_scores(tmp_path / "in.csv", s, y)
    sh("apply", tmp_path / "m.json", tmp_path / "in.csv", tmp_path / "out.csv")
    lines = (tmp_path / "out.csv").read_text().split()
    assert lines[0] == "prob" and len(lines) == len(s) + 1
    got = np.array([float(v) for v in lines[1:]])
    z = 0.8 * s - 1.3
    want = 0.5 * (1 + np.tanh(z / 2))
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, want, atol=1e-6, rtol=0)


def report_case(tmp_path, p, y, bins):
    with open(tmp_path / "pred.csv", "w") as f:
        f.write("prob,label\n")
        for a, b in zip(p, y):
            f.write(f"{float(a)!r},{int(b)}\n")
    sh("report", tmp_path / "pred.csv", bins, tmp_path / "r.json")
    check_report(json.loads((tmp_path / "r.json").read_text()), ref_report(p, y, bins))


def test_report_matches_reference(tmp_path):
    rng = np.random.default_rng(555)
    p = rng.beta(0.7, 1.6, 4000)
    y = (rng.random(4000) < np.clip(p * 1.25 - 0.05, 0, 1)).astype(int)
    report_case(tmp_path, p, y, 15)


def test_report_edges_bounds_empty_bins_and_clipping(tmp_path):
    p = [0.0, 0.0, 1.0, 1.0, 1.0, 0.25, 0.5, 0.75, 0.625, 0.125, 0.5]
    y = [0, 1, 1, 1, 0, 1, 0, 1, 1, 0, 1]
    report_case(tmp_path, p, y, 8)


def test_report_one_bin_and_calibrated_pipeline(tmp_path):
    rng = np.random.default_rng(2024)
    y = (rng.random(1500) < 0.3).astype(int)
    s = rng.normal(np.where(y == 1, 1.0, -0.5), 1.0) * 3
    a, b = ref_fit(s, y)
    p = 0.5 * (1 + np.tanh((a * s + b) / 2))
    report_case(tmp_path, p, y, 1)
    report_case(tmp_path, np.round(p, 2), y, 20)
