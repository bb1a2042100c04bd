import json
import math
import subprocess

import numpy as np
import pytest
from scipy.optimize import minimize_scalar


def simulate(seed, G=40, su=1.0, se=1.5, sizes=(1, 25), names=None):
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(G):
        name = names[g] if names else f"g{g:03d}"
        u = rng.normal(0, su)
        for _ in range(int(rng.integers(sizes[0], sizes[1] + 1))):
            x1 = round(float(rng.normal(50, 10)), 2)
            x2 = int(rng.random() < 0.4)
            rows.append({"group": name, "y": round(3 + 0.05 * x1 - 0.8 * x2 + u + float(rng.normal(0, se)), 4),
                         "x1": x1, "x2": x2})
    order = rng.permutation(len(rows))
    return [rows[i] for i in order]


def reference(rows, covs):
    names = []
    seen = {}
    for r in rows:
        if r["group"] not in seen:
            seen[r["group"]] = len(names)
            names.append(r["group"])
    gid = np.array([seen[r["group"]] for r in rows])
    y = np.array([float(r["y"]) for r in rows])
    X = np.column_stack([np.ones(len(rows))] + [[float(r[c]) for r in rows] for c in covs])
    n, p = X.shape
    G = len(names)
    ni = np.bincount(gid, minlength=G).astype(float)
    SX = np.zeros((G, p))
    np.add.at(SX, gid, X)
    Sy = np.bincount(gid, weights=y, minlength=G)

    def parts(gamma):
        w = gamma / (1.0 + ni * gamma)
        M = X.T @ X - SX.T @ (SX * w[:, None])
        beta = np.linalg.solve(M, X.T @ y - SX.T @ (w * Sy))
        res = y - X @ beta
        Sr = np.bincount(gid, weights=res, minlength=G)
        return beta, M, res @ res - np.sum(w * Sr ** 2), Sr

    def reml(gamma):
        beta, M, Q, _ = parts(gamma)
        s2 = Q / (n - p)
        return -0.5 * ((n - p) * (math.log(2 * math.pi) + math.log(s2) + 1.0) + np.sum(np.log1p(ni * gamma))
                       + np.linalg.slogdet(M)[1])

    best = minimize_scalar(lambda t: -reml(math.exp(t)), bounds=(-40.0, 12.0), method="bounded",
                           options={"xatol": 1e-13, "maxiter": 5000})
    gamma = math.exp(best.x)
    if reml(0.0) >= reml(gamma) - 1e-12:
        gamma = 0.0
    beta, M, Q, Sr = parts(gamma)
    s2e = Q / (n - p)
    s2u = gamma * s2e
    return {"covariates": list(covs), "beta": beta.tolist(),
            "se": np.sqrt(np.diag(s2e * np.linalg.inv(M))).tolist(), "sigma2_u": s2u, "sigma2_e": s2e,
            "reml_loglik": reml(gamma), "blup": {g: float(s2u / (s2e + ni[k] * s2u) * Sr[k]) for k, g in enumerate(names)}}


def fmt(v):
    if isinstance(v, str):
        return v
    v = float(v)
    return str(int(v)) if v.is_integer() else repr(v)


def run(tmp_path, rows, cols):
    src, dst = tmp_path / "data.csv", tmp_path / "fit.json"
    with open(src, "w") as f:
        f.write(",".join(cols) + "\n")
        for r in rows:
            f.write(",".join(fmt(r[c]) for c in cols) + "\n")
    out = subprocess.run(["python3", "/app/lmm_fit.py", str(src), str(dst)], capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(dst.read_text())


def near(got, want, tol=1e-6):
    return abs(got - want) <= tol * max(1.0, abs(want))


def check(got, want):
    assert got["covariates"] == want["covariates"]
    assert len(got["beta"]) == len(want["beta"]) and len(got["se"]) == len(want["se"])
    for key in ("beta", "se"):
        assert all(near(g, w) for g, w in zip(got[key], want[key])), (key, got[key], want[key])
    for key in ("sigma2_u", "sigma2_e"):
        assert near(got[key], want[key]), (key, got[key], want[key])
    assert abs(got["reml_loglik"] - want["reml_loglik"]) <= 1e-6, (got["reml_loglik"], want["reml_loglik"])
    assert set(got["blup"]) == set(want["blup"])
    bad = [g for g in want["blup"] if not near(got["blup"][g], want["blup"][g])]
    assert not bad, [(g, got["blup"][g], want["blup"][g]) for g in bad[:5]]


def test_unbalanced_groups(tmp_path):
    rows = simulate(101)
    check(run(tmp_path, rows, ["group", "y", "x1", "x2"]), reference(rows, ["x1", "x2"]))


def test_columns_in_any_order(tmp_path):
    rows = simulate(202, G=30, su=2.0, se=1.0, sizes=(2, 12))
    check(run(tmp_path, rows, ["x2", "group", "x1", "y"]), reference(rows, ["x2", "x1"]))


def test_intercept_only(tmp_path):
    rows = simulate(303, G=25, su=0.7, se=1.2, sizes=(1, 9))
    check(run(tmp_path, rows, ["y", "group"]), reference(rows, []))


def test_variance_at_boundary(tmp_path):
    rows = simulate(2, G=15, su=0.0)
    want = reference(rows, ["x1", "x2"])
    assert want["sigma2_u"] == 0.0
    got = run(tmp_path, rows, ["group", "x1", "y", "x2"])
    check(got, want)


def test_small_between_group_variance(tmp_path):
    rows = simulate(404, G=60, su=0.4, se=2.0, sizes=(1, 15))
    want = reference(rows, ["x1", "x2"])
    assert 0 < want["sigma2_u"] < 0.2 * want["sigma2_e"]
    check(run(tmp_path, rows, ["group", "y", "x1", "x2"]), want)


def test_group_labels_are_strings(tmp_path):
    names = ["007", "7", "7.0", "a b", "A B", "x-1", "", "NA"] + [f"site/{i}" for i in range(22)]
    rows = simulate(505, G=len(names), names=names, sizes=(1, 6))
    want = reference(rows, ["x1", "x2"])
    got = run(tmp_path, rows, ["group", "y", "x1", "x2"])
    check(got, want)


def test_many_groups(tmp_path):
    rows = simulate(606, G=2500, su=1.1, se=1.3, sizes=(1, 15))
    assert len(rows) > 18000
    check(run(tmp_path, rows, ["group", "y", "x1", "x2"]), reference(rows, ["x1", "x2"]))
