import csv
import json
import math
import subprocess

import numpy as np
import pytest


# ---------------------------------------------------------------- data

def league(rng, names, rounds=2, theta=0.3, nu=0.6, spread=0.8, neutral_share=0.0, sparse=None):
    lam = {t: float(rng.normal(0, spread)) for t in names}
    pairs = [(h, a) for h in names for a in names if h != a] * (rounds // 2) if sparse is None else sparse
    out = []
    for h, a in pairs:
        neutral = rng.random() < neutral_share
        eh = lam[h] + (0 if neutral else theta)
        ea = lam[a]
        ed = math.log(nu) + 0.5 * (eh + ea)
        e = np.array([eh, ed, ea])
        p = np.exp(e - e.max())
        p /= p.sum()
        res = "HDA"[rng.choice(3, p=p)]
        out.append({"home": h, "away": a, "result": res, "neutral": int(neutral)})
    return out


def write(path, rows, cols):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow([r[c] for c in cols])


# ---------------------------------------------------------------- reference

def reference(matches, fixtures):
    teams = sorted({m[k] for m in matches for k in ("home", "away")})
    pos = {t: i for i, t in enumerate(teams)}
    T = len(teams)
    # connected components by repeated relabelling
    label = list(range(T))
    changed = True
    while changed:
        changed = False
        for m in matches:
            i, j = pos[m["home"]], pos[m["away"]]
            lo = min(label[i], label[j])
            if label[i] != lo or label[j] != lo:
                old = {label[i], label[j]}
                label = [lo if l in old else l for l in label]
                changed = True
    comps = sorted(set(label))

    def rows(m):
        neutral = int(m["neutral"]) == 1
        h = np.zeros(T + 2)
        h[pos[m["home"]]] = 1.0
        if not neutral:
            h[T] = 1.0
        a = np.zeros(T + 2)
        a[pos[m["away"]]] = 1.0
        d = 0.5 * (h + a)
        d[T + 1] = 1.0
        return [h, d, a], "HDA".index(m["result"])

    data = [rows(m) for m in matches]

    def evaluate(w):
        ll, g, info = 0.0, np.zeros(T + 2), np.zeros((T + 2, T + 2))
        for xs, k in data:
            e = np.array([x @ w for x in xs])
            c = e.max() + math.log(np.exp(e - e.max()).sum())
            p = np.exp(e - c)
            ll += e[k] - c
            mean = sum(pi * x for pi, x in zip(p, xs))
            g += xs[k] - mean
            for pi, x in zip(p, xs):
                info += pi * np.outer(x - mean, x - mean)
        return ll, g, info

    # basis of the constrained directions: per component, rating differences; plus theta and ln nu
    Z = []
    for c in comps:
        members = [i for i in range(T) if label[i] == c]
        for i in members[1:]:
            v = np.zeros(T + 2)
            v[members[0]], v[i] = -1.0, 1.0
            Z.append(v)
    for j in (T, T + 1):
        v = np.zeros(T + 2)
        v[j] = 1.0
        Z.append(v)
    Z = np.array(Z).T
    w = np.zeros(T + 2)
    ll, g, info = evaluate(w)
    for _ in range(100):
        step = Z @ np.linalg.solve(Z.T @ info @ Z, Z.T @ g)
        s = 1.0
        while True:
            cand = w + s * step
            lc, gc, ic = evaluate(cand)
            if lc >= ll - 1e-12 or s < 1e-9:
                break
            s /= 2
        small = np.max(np.abs(s * step)) < 1e-12
        w, ll, g, info = cand, lc, gc, ic
        if small:
            break
    for c in comps:
        members = [i for i in range(T) if label[i] == c]
        w[members] -= w[members].mean()
    ll, g, info = evaluate(w)
    cov = Z @ np.linalg.inv(Z.T @ info @ Z) @ Z.T
    se = np.sqrt(np.diag(cov))
    preds = []
    for f in fixtures:
        h, a = f["home"], f["away"]
        if h not in pos or a not in pos or label[pos[h]] != label[pos[a]]:
            preds.append(None)
            continue
        eh = w[pos[h]] + (0.0 if int(f["neutral"]) == 1 else w[T])
        ea = w[pos[a]]
        e = np.array([eh, w[T + 1] + 0.5 * (eh + ea), ea])
        p = np.exp(e - e.max())
        p /= p.sum()
        preds.append({"home": p[0], "draw": p[1], "away": p[2]})
    return {"ratings": {t: {"rating": w[pos[t]], "se": se[pos[t]]} for t in teams}, "home_advantage": w[T],
            "home_advantage_se": se[T], "draw_nu": math.exp(w[T + 1]), "loglik": ll, "components": len(comps),
            "predictions": preds}


# ---------------------------------------------------------------- running and comparing

def run(tmp_path, matches, fixtures, cols=("home", "away", "result", "neutral")):
    write(tmp_path / "matches.csv", matches, list(cols))
    write(tmp_path / "fixtures.csv", fixtures, ["home", "away", "neutral"])
    r = subprocess.run(["python3", "/app/ratings.py", str(tmp_path / "matches.csv"), str(tmp_path / "fixtures.csv"),
                        str(tmp_path / "out.json")], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads((tmp_path / "out.json").read_text())


def near(a, b, tol=1e-6):
    return abs(a - b) <= tol * max(1.0, abs(b))


def check(got, want):
    assert set(got["ratings"]) == set(want["ratings"])
    assert got["components"] == want["components"]
    bad = [(t, got["ratings"][t], want["ratings"][t]) for t in want["ratings"]
           if not near(got["ratings"][t]["rating"], want["ratings"][t]["rating"])]
    assert not bad, bad[:4]
    bad = [(t, got["ratings"][t], want["ratings"][t]) for t in want["ratings"]
           if not near(got["ratings"][t]["se"], want["ratings"][t]["se"])]
    assert not bad, bad[:4]
    for k in ("home_advantage", "home_advantage_se", "draw_nu"):
        assert near(got[k], want[k]), (k, got[k], want[k])
    assert abs(got["loglik"] - want["loglik"]) <= 1e-6, (got["loglik"], want["loglik"])
    assert len(got["predictions"]) == len(want["predictions"])
    for g, w in zip(got["predictions"], want["predictions"]):
        if w is None:
            assert g is None
        else:
            assert g is not None and all(near(g[k], w[k]) for k in ("home", "draw", "away")), (g, w)


def fixtures_for(rng, names, n=20, neutral_share=0.3):
    out = []
    for _ in range(n):
        h, a = rng.choice(names, size=2, replace=False)
        out.append({"home": str(h), "away": str(a), "neutral": int(rng.random() < neutral_share)})
    return out


def test_double_round_robin(tmp_path):
    rng = np.random.default_rng(1)
    names = [f"Club {c}" for c in "ABCDEFGHIJKL"]
    matches = league(rng, names)
    fx = fixtures_for(rng, names)
    check(run(tmp_path, matches, fx), reference(matches, fx))


def test_neutral_venues(tmp_path):
    rng = np.random.default_rng(2)
    names = [f"T{i}" for i in range(10)]
    matches = league(rng, names, rounds=4, neutral_share=0.35, theta=0.5)
    fx = fixtures_for(rng, names, neutral_share=0.5)
    check(run(tmp_path, matches, fx), reference(matches, fx))


def test_two_leagues_never_met(tmp_path):
    rng = np.random.default_rng(3)
    north = [f"North {i}" for i in range(9)]
    south = [f"South {i}" for i in range(7)]
    matches = league(rng, north) + league(rng, south, spread=1.2)
    rng.shuffle(matches)
    fx = fixtures_for(rng, north, 8) + fixtures_for(rng, south, 8) + [
        {"home": north[0], "away": south[0], "neutral": 0}, {"home": south[2], "away": north[5], "neutral": 1},
        {"home": "Newcomers", "away": north[1], "neutral": 0}]
    want = reference(matches, fx)
    assert want["components"] == 2
    check(run(tmp_path, matches, fx), want)


def test_sparse_schedule(tmp_path):
    rng = np.random.default_rng(4)
    names = [f"P{i:02d}" for i in range(24)]
    pairs = [(names[i], names[(i + 1) % 24]) for i in range(24)]  # a ring keeps it connected
    while len(pairs) < 150:
        h, a = rng.choice(24, size=2, replace=False)
        pairs.append((names[h], names[a]))
    matches = league(rng, names, sparse=pairs, neutral_share=0.1)
    fx = fixtures_for(rng, names, 30)
    check(run(tmp_path, matches, fx), reference(matches, fx))


def test_odd_names_and_column_order(tmp_path):
    rng = np.random.default_rng(5)
    names = ["Real, Madrid", "O'Neill XI", "  spaced  ", "Ünion", "1", "01", "A \"quoted\" side", "x"]
    matches = league(rng, names, rounds=4, neutral_share=0.2)
    fx = fixtures_for(rng, names, 12)
    check(run(tmp_path, matches, fx, cols=("result", "neutral", "away", "home")), reference(matches, fx))


def test_numeric_looking_team_codes(tmp_path):
    rng = np.random.default_rng(7)
    names = ["1", "01", "001", "10", "010", "1.0", "2", "02", "20"]
    matches = league(rng, names, rounds=2, neutral_share=0.1)
    fx = fixtures_for(rng, names, 15)
    want = reference(matches, fx)
    assert len(want["ratings"]) == 9
    check(run(tmp_path, matches, fx), want)


def test_three_islands_with_cup(tmp_path):
    rng = np.random.default_rng(6)
    groups = [[f"G{g}-{i}" for i in range(6)] for g in range(4)]
    matches = []
    for g in groups:
        matches += league(rng, g, theta=0.25, nu=0.9)
    # a neutral-venue cup links the first two groups
    matches += [{"home": groups[0][i], "away": groups[1][i], "result": "HDA"[i % 3], "neutral": 1} for i in range(4)]
    rng.shuffle(matches)
    fx = fixtures_for(rng, groups[0] + groups[1], 10) + fixtures_for(rng, groups[2] + groups[3], 10)
    want = reference(matches, fx)
    assert want["components"] == 3
    check(run(tmp_path, matches, fx), want)
