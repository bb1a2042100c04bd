import json
import math
import subprocess

import numpy as np
import pytest


# ---------------------------------------------------------------- data generation

def simulate(seed, n_subj=400, strata=("north", "south", "west"), late=True, split=True, whole=True,
             base=None, effects=(0.03, -0.6, 0.4)):
    rng = np.random.default_rng(seed)
    base = base or {"north": 0.02, "south": 0.035, "west": 0.05, "east": 0.03, "": 0.03}
    rows = []
    for _ in range(n_subj):
        s = strata[rng.integers(len(strata))]
        age = round(float(rng.normal(60, 9)), 1)
        treat = int(rng.random() < 0.5)
        bio = round(float(rng.normal(0, 1)), 2)
        h = base[s] * math.exp(effects[0] * (age - 60) + effects[1] * treat + effects[2] * bio)
        T = rng.exponential(1 / h)
        C = rng.uniform(10, 120)
        entry = float(rng.uniform(0, 25)) if (late and rng.random() < 0.4) else 0.0
        end, ev = min(T, C), int(T <= C)
        if whole:
            end, entry = float(math.ceil(end)), float(math.floor(entry))
        else:
            end, entry = round(end, 2), round(entry, 2)
        if end <= entry:
            continue
        cuts = [entry]
        if split:
            k = int(rng.integers(0, 3))
            inner = sorted(set(float(round(c)) if whole else round(float(c), 2) for c in rng.uniform(entry, end, k)))
            cuts += [c for c in inner if entry < c < end]
        cuts.append(end)
        for j in range(len(cuts) - 1):
            b = bio if j == 0 else round(bio + float(rng.normal(0, 0.5)), 2)
            rows.append({"start": cuts[j], "stop": cuts[j + 1], "event": ev if j == len(cuts) - 2 else 0,
                         "stratum": s, "age": age, "treat": treat, "bio": b})
    order = rng.permutation(len(rows))
    return [rows[i] for i in order]


def fmt(v):
    if isinstance(v, str):
        return v
    v = float(v)
    return str(int(v)) if v.is_integer() else repr(v)


def write(path, rows, cols):
    with open(path, "w") as f:
        f.write(",".join(cols) + "\n")
        for r in rows:
            f.write(",".join(fmt(r[c]) for c in cols) + "\n")


# ---------------------------------------------------------------- reference

def reference(rows, covs, stratified):
    X = np.array([[float(r[c]) for c in covs] for r in rows])
    start = np.array([float(r["start"]) for r in rows])
    stop = np.array([float(r["stop"]) for r in rows])
    event = np.array([int(r["event"]) for r in rows])
    strat = [r["stratum"] if stratified else "" for r in rows]
    sets = []
    for s in set(strat):
        ins = np.array([v == s for v in strat])
        for t in sorted(set(stop[ins & (event == 1)].tolist())):
            at_risk = ins & (start < t) & (t <= stop)
            tied = ins & (event == 1) & (stop == t)
            sets.append((at_risk, tied))

    def loglik(beta):
        w = np.exp(X @ beta)
        total = 0.0
        grad = np.zeros(len(covs))
        info = np.zeros((len(covs), len(covs)))
        for at_risk, tied in sets:
            d = int(tied.sum())
            total += float((X[tied] @ beta).sum())
            grad += X[tied].sum(axis=0)
            for k in range(d):
                wk = w * (at_risk - (k / d) * tied)
                a = wk.sum()
                b = wk @ X
                c = (X * wk[:, None]).T @ X
                total -= math.log(a)
                grad -= b / a
                info += c / a - np.outer(b, b) / (a * a)
        return total, grad, info

    beta = np.zeros(len(covs))
    l0, g, info = loglik(beta)
    cur = l0
    for _ in range(100):
        delta = np.linalg.solve(info, g)
        while True:
            cand = beta + delta
            lc, gc, ic = loglik(cand)
            if lc >= cur - 1e-12 or np.max(np.abs(delta)) < 1e-14:
                break
            delta = delta / 2
        beta, g, info, prev, cur = cand, gc, ic, cur, lc
        if abs(cur - prev) < 1e-14 * max(1.0, abs(cur)) and np.max(np.abs(delta)) < 1e-12:
            break
    return {"covariates": list(covs), "coef": beta.tolist(), "se": np.sqrt(np.diag(np.linalg.inv(info))).tolist(),
            "loglik_null": l0, "loglik": cur, "n": len(rows), "events": int(event.sum())}


def run(tmp_path, rows, cols):
    src, dst = tmp_path / "data.csv", tmp_path / "out.json"
    write(src, rows, cols)
    r = subprocess.run(["python3", "/app/coxph.py", str(src), str(dst)], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(dst.read_text())


def check(got, want):
    assert got["covariates"] == want["covariates"]
    assert got["n"] == want["n"] and got["events"] == want["events"]
    assert abs(got["loglik_null"] - want["loglik_null"]) <= 1e-6, (got["loglik_null"], want["loglik_null"])
    assert abs(got["loglik"] - want["loglik"]) <= 1e-6, (got["loglik"], want["loglik"])
    for key in ("coef", "se"):
        assert len(got[key]) == len(want[key])
        for g, w in zip(got[key], want[key]):
            assert abs(g - w) <= 1e-6 * max(1.0, abs(w)), (key, got[key], want[key])


COLS = ["start", "stop", "event", "stratum", "age", "treat", "bio"]
NOSTRAT = ["start", "stop", "event", "age", "treat", "bio"]


def test_right_censored_ties_single_stratum(tmp_path):
    rows = simulate(101, n_subj=500, strata=("",), late=False, split=False)
    want = reference(rows, ["age", "treat", "bio"], False)
    check(run(tmp_path, rows, NOSTRAT), want)


def test_heavy_ties_coarse_times(tmp_path):
    rows = simulate(202, n_subj=450, strata=("",), late=False, split=False)
    for r in rows:  # follow-up recorded in 15-day blocks: many deaths share a time
        r["stop"] = float(math.ceil(r["stop"] / 15.0))
    want = reference(rows, ["treat", "bio"], False)
    assert max(np.unique([r["stop"] for r in rows if r["event"]], return_counts=True)[1]) >= 20
    check(run(tmp_path, rows, ["start", "stop", "event", "treat", "bio"]), want)


def test_late_entry_and_time_varying_rows(tmp_path):
    rows = simulate(303, n_subj=450, strata=("",), late=True, split=True)
    starts = {r["start"] for r in rows}
    assert any(r["event"] and r["stop"] in starts for r in rows)
    want = reference(rows, ["age", "treat", "bio"], False)
    check(run(tmp_path, rows, NOSTRAT), want)


def test_strata_share_coefficients(tmp_path):
    rows = simulate(404, n_subj=500, late=True, split=True)
    # a stratum with no events at all contributes nothing
    rows += [{"start": 0.0, "stop": float(t), "event": 0, "stratum": "east", "age": 50.0 + t, "treat": t % 2,
              "bio": 0.1 * t} for t in (5, 9, 30)]
    want = reference(rows, ["age", "treat", "bio"], True)
    check(run(tmp_path, rows, COLS), want)


def test_continuous_times_and_column_order(tmp_path):
    rows = simulate(505, n_subj=400, strata=("A-1", "b two", "C"), late=True, split=True, whole=False,
                    base={"A-1": 0.02, "b two": 0.04, "C": 0.03})
    cols = ["bio", "stop", "stratum", "age", "start", "event", "treat"]
    want = reference(rows, ["bio", "age", "treat"], True)
    check(run(tmp_path, rows, cols), want)


def test_many_small_strata_with_ties(tmp_path):
    names = tuple(f"site{i:02d}" for i in range(12))
    base = {n: 0.02 + 0.004 * i for i, n in enumerate(names)}
    rows = simulate(606, n_subj=600, strata=names, late=True, split=True, base=base, effects=(0.05, -0.9, 0.7))
    for r in rows:
        r["start"], r["stop"] = float(math.floor(r["start"] / 4.0)), float(math.ceil(r["stop"] / 4.0))
    rows = [r for r in rows if r["start"] < r["stop"]]
    want = reference(rows, ["age", "treat", "bio"], True)
    check(run(tmp_path, rows, COLS), want)
