import csv
import json
import subprocess

import numpy as np
import pytest


def gen(seed, n):
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        s = int(rng.integers(0, n * 2))
        e = s + int(rng.geometric(0.25)) - 1
        x = rng.normal(size=3)
        y = 2.0 * x[0] - 1.0 * x[1] + 0.5 * x[2] + 0.01 * s + rng.normal(0, 0.7)
        rows.append([f"{rng.choice(['a', 'b', 'B'])}{rng.integers(0, 200)}_{i}", s, e,
                     *("%.5f" % v for v in x), "%.5f" % y])
    order = rng.permutation(n)
    return [rows[i] for i in order]


def write(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "start", "end", "x1", "x2", "x3", "y"])
        w.writerows(rows)


def ref_folds(rows, k, emb):
    ev = sorted(rows, key=lambda r: (int(r[1]), int(r[2]), r[0]))
    n = len(ev)
    sizes = [n // k + (1 if f < n % k else 0) for f in range(k)]
    out, pos = [], 0
    for f, sz in enumerate(sizes):
        te = list(range(pos, pos + sz))
        pos += sz
        a = min(int(ev[i][1]) for i in te)
        b = max(int(ev[i][2]) for i in te)
        tr = []
        for i, r in enumerate(ev):
            s, e = int(r[1]), int(r[2])
            if pos - sz <= i < pos or (s <= b and e >= a) or (b < s <= b + emb):
                continue
            tr.append(i)
        out.append((te, tr))
    return ev, out


def ref_splits(rows, k, emb):
    ev, fl = ref_folds(rows, k, emb)
    return [{"fold": f, "test": [ev[i][0] for i in te], "train": [ev[i][0] for i in tr]} for f, (te, tr) in enumerate(fl)]


def ref_eval(rows, k, emb):
    ev, fl = ref_folds(rows, k, emb)
    X = np.array([[1.0] + [float(v) for v in r[3:6]] for r in ev])
    y = np.array([float(r[6]) for r in ev])
    folds, pooled = [], []
    for f, (te, tr) in enumerate(fl):
        beta = np.linalg.solve(X[tr].T @ X[tr], X[tr].T @ y[tr])
        err = (X[te] @ beta - y[te]) ** 2
        pooled.extend(err)
        folds.append({"fold": f, "n_train": len(tr), "n_test": len(te), "mse": float(err.mean())})
    return {"folds": folds, "mse": float(np.mean(pooled))}


def run(tmp, cmd, rows, k, emb):
    write(tmp / "ev.csv", rows)
    out = tmp / f"{cmd}.json"
    r = subprocess.run(["python3", "/app/pcv.py", cmd, str(tmp / "ev.csv"), str(k), str(emb), str(out)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def big():
    return gen(2718, 157)


def test_folds_partition_events(big, tmp_path):
    got = run(tmp_path, "splits", big, 6, 2)
    assert [f["fold"] for f in got] == list(range(6))
    tested = [i for f in got for i in f["test"]]
    assert sorted(tested) == sorted(r[0] for r in big) and len(tested) == len(big)
    assert [len(f["test"]) for f in got] == [27, 26, 26, 26, 26, 26]
    for f in got:
        assert not set(f["test"]) & set(f["train"])


def test_splits_match_reference(big, tmp_path):
    assert run(tmp_path, "splits", big, 5, 3) == ref_splits(big, 5, 3)


def test_splits_other_k_no_embargo(tmp_path):
    rows = gen(31337, 90)
    assert run(tmp_path, "splits", rows, 4, 0) == ref_splits(rows, 4, 0)


def test_closed_interval_purging(tmp_path):
    # sorted: p(0-3) q(4-6) r(6-8) s(8-9) t(9-12) u(13-15); K=3 -> blocks [p,q] [r,s] [t,u]
    rows = [["s", 8, 9, 0, 0, 0, 0], ["p", 0, 3, 0, 0, 0, 0], ["u", 13, 15, 0, 0, 0, 0],
            ["r", 6, 8, 0, 0, 0, 0], ["t", 9, 12, 0, 0, 0, 0], ["q", 4, 6, 0, 0, 0, 0]]
    got = run(tmp_path, "splits", rows, 3, 0)
    assert got == [
        {"fold": 0, "test": ["p", "q"], "train": ["s", "t", "u"]},
        {"fold": 1, "test": ["r", "s"], "train": ["p", "u"]},
        {"fold": 2, "test": ["t", "u"], "train": ["p", "q", "r"]},
    ]


def test_embargo_boundary_and_long_labels(tmp_path):
    # block 0 = [a0 (0-10), a1 (2-4)] -> window [0, 10]; EMBARGO 3 drops starts 11..13
    rows = [["a0", 0, 10, 0, 0, 0, 0], ["a1", 2, 4, 0, 0, 0, 0],
            ["c1", 11, 11, 0, 0, 0, 0], ["c2", 13, 40, 0, 0, 0, 0], ["c3", 14, 14, 0, 0, 0, 0],
            ["c4", 20, 21, 0, 0, 0, 0]]
    got = run(tmp_path, "splits", rows, 3, 3)
    assert got[0] == {"fold": 0, "test": ["a0", "a1"], "train": ["c3", "c4"]}
    # block 1 = [c1, c2] -> window [11, 40]: everything else intersects or is before; a0/a1 end before 11
    assert got[1] == {"fold": 1, "test": ["c1", "c2"], "train": ["a0", "a1"]}
    # block 2 = [c3, c4] -> window [14, 21]: c2 (13-40) intersects, c1 (11-11) is before it
    assert got[2] == {"fold": 2, "test": ["c3", "c4"], "train": ["a0", "a1", "c1"]}


def test_tie_order(tmp_path):
    rows = [["b", 5, 9, 0, 0, 0, 0], ["a10", 5, 7, 0, 0, 0, 0], ["a9", 5, 7, 0, 0, 0, 0], ["Z", 5, 7, 0, 0, 0, 0],
            ["m", 1, 2, 0, 0, 0, 0], ["n", 30, 31, 0, 0, 0, 0], ["o", 40, 41, 0, 0, 0, 0]]
    got = run(tmp_path, "splits", rows, 2, 0)
    assert got[0]["test"] == ["m", "Z", "a10", "a9"]
    assert got[1]["test"] == ["b", "n", "o"]
    assert got[1]["train"] == ["m"]


def test_evaluate_matches_reference(big, tmp_path):
    got = run(tmp_path, "evaluate", big, 5, 3)
    want = ref_eval(big, 5, 3)
    assert [(f["fold"], f["n_train"], f["n_test"]) for f in got["folds"]] == \
        [(f["fold"], f["n_train"], f["n_test"]) for f in want["folds"]]
    np.testing.assert_allclose([f["mse"] for f in got["folds"]], [f["mse"] for f in want["folds"]], rtol=1e-6)
    np.testing.assert_allclose(got["mse"], want["mse"], rtol=1e-6)


def test_evaluate_pooled_not_mean_of_folds(tmp_path):
    rows = gen(4242, 103)
    got = run(tmp_path, "evaluate", rows, 4, 1)
    want = ref_eval(rows, 4, 1)
    np.testing.assert_allclose([f["mse"] for f in got["folds"]], [f["mse"] for f in want["folds"]], rtol=1e-6)
    np.testing.assert_allclose(got["mse"], want["mse"], rtol=1e-6)
