import csv
import subprocess

import numpy as np
import pytest

POOL = ["red", "blue", "green", "NA", "null", "nan", "None", "", " red", "Red", "n/a", "0"]


def write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def read(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def ref_stats(rows, ci, ti):
    n, s, tn, ts = {}, {}, 0, 0.0
    for r in rows:
        if r[ti] == "":
            continue
        v = float(r[ti])
        n[r[ci]] = n.get(r[ci], 0) + 1
        s[r[ci]] = s.get(r[ci], 0.0) + v
        tn += 1
        ts += v
    return n, s, ts / tn


def ref_enc(v, st, m):
    n, s, p = st
    return p if n.get(v, 0) == 0 else (s[v] + m * p) / (n[v] + m)


def reference(train, test, cols, m):
    # train rows: [id, *cols, target, fold]; test rows: [id, *cols]
    ti, fi = 1 + len(cols), 2 + len(cols)
    folds = {r[fi] for r in train}
    per = {f: [ref_stats([r for r in train if r[fi] != f], 1 + j, ti) for j in range(len(cols))] for f in folds}
    full = [ref_stats(train, 1 + j, ti) for j in range(len(cols))]
    otr = [[ref_enc(r[1 + j], per[r[fi]][j], m) for j in range(len(cols))] for r in train]
    ote = [[ref_enc(r[1 + j], full[j], m) for j in range(len(cols))] for r in test]
    return otr, ote


def run(tmp, train, test, cols, m, target="y", fold="fold"):
    write(tmp / "train.csv", ["id", *cols, target, fold], train)
    write(tmp / "test.csv", ["id", *cols], test)
    r = subprocess.run(["python3", "/app/te.py", "--train", str(tmp / "train.csv"), "--test", str(tmp / "test.csv"),
                        "--cols", ",".join(cols), "--target", target, "--fold-col", fold, "--m", str(m),
                        "--out-train", str(tmp / "otr.csv"), "--out-test", str(tmp / "ote.csv")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return read(tmp / "otr.csv"), read(tmp / "ote.csv")


def values(out):
    return np.array([[float(x) for x in row[1:]] for row in out[1:]])


def gen(seed, n_train=600, n_test=300, cols=("color", "shape"), regression=False, miss=0.08):
    rng = np.random.default_rng(seed)
    folds = rng.choice([11, 3, 7, 42], size=n_train)
    pools = [POOL, ["sq", "tri", "", "NA", "circle", "hex", "None"]][: len(cols)]
    probs = [rng.dirichlet(np.ones(len(p))) for p in pools]
    train, test = [], []
    for i in range(n_train):
        cats = [str(rng.choice(p, p=q)) for p, q in zip(pools, probs)]
        if regression:
            y = "%.4f" % (rng.normal() * 3 + len(cats[0]))
        else:
            y = str(int(rng.random() < 0.2 + 0.1 * len(cats[0]) % 0.7))
        if rng.random() < miss:
            y = ""
        train.append([f"{i:05d}", *cats, y, str(folds[i])])
    for i in range(n_test):
        cats = [str(rng.choice(p + ["unseen" + str(i % 3)], p=np.append(q * 0.9, 0.1))) for p, q in zip(pools, probs)]
        test.append([f"t{i:04d}", *cats])
    return train, test, list(cols)


@pytest.fixture(scope="module")
def main_case(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("main")
    train, test, cols = gen(90210)
    otr, ote = run(tmp, train, test, cols, 7.5)
    return train, test, cols, otr, ote


def test_output_format(main_case):
    train, test, cols, otr, ote = main_case
    assert otr[0] == ["id", "te_color", "te_shape"]
    assert ote[0] == ["id", "te_color", "te_shape"]
    assert [r[0] for r in otr[1:]] == [r[0] for r in train], "train ids must be verbatim, in input order"
    assert [r[0] for r in ote[1:]] == [r[0] for r in test], "test ids must be verbatim, in input order"


def test_test_rows_match_reference(main_case):
    train, test, cols, otr, ote = main_case
    _, want = reference(train, test, cols, 7.5)
    np.testing.assert_allclose(values(ote), np.array(want), atol=1e-6, rtol=0)


def test_train_rows_out_of_fold(main_case):
    train, test, cols, otr, ote = main_case
    want, _ = reference(train, test, cols, 7.5)
    np.testing.assert_allclose(values(otr), np.array(want), atol=1e-6, rtol=0)


def test_own_fold_targets_do_not_leak(tmp_path):
    train, test, cols = gen(5150, n_train=400, n_test=50)
    a = tmp_path / "a"
    b = tmp_path / "b"
    a.mkdir()
    b.mkdir()
    otr1, _ = run(a, train, test, cols, 3)
    flipped = [r[:] for r in train]
    for r in flipped:
        if r[4] == "7" and r[3] != "":
            r[3] = str(1 - int(r[3]))
    otr2, _ = run(b, flipped, test, cols, 3)
    v1, v2 = values(otr1), values(otr2)
    in7 = np.array([r[4] == "7" for r in train])
    np.testing.assert_allclose(v1[in7], v2[in7], atol=1e-9, rtol=0)
    assert np.abs(v1[~in7] - v2[~in7]).max() > 1e-3


def test_na_like_strings_are_categories(tmp_path):
    cols = ["c"]
    train = [["1", "NA", "1", "0"], ["2", "NA", "1", "1"], ["3", "", "0", "0"], ["4", "", "0", "1"],
             ["5", "null", "1", "0"], ["6", "nan", "0", "1"], ["7", "None", "1", "1"], ["8", "x", "0", "0"]]
    test = [["a", "NA"], ["b", ""], ["c", "null"], ["d", "nan"], ["e", "None"], ["f", "zz"]]
    otr, ote = run(tmp_path, train, test, cols, 1)
    p = 4 / 8
    want_test = [(2 + p) / 3, (0 + p) / 3, (1 + p) / 2, (0 + p) / 2, (1 + p) / 2, p]
    np.testing.assert_allclose(values(ote)[:, 0], want_test, atol=1e-6, rtol=0)
    want_train, _ = reference(train, test, cols, 1)
    np.testing.assert_allclose(values(otr), np.array(want_train), atol=1e-6, rtol=0)


def test_missing_targets_excluded_but_encoded(tmp_path):
    cols = ["c"]
    train = [["1", "a", "", "0"], ["2", "a", "1", "0"], ["3", "a", "", "1"], ["4", "b", "0", "1"],
             ["5", "a", "0", "1"], ["6", "b", "", "0"]]
    test = [["t", "a"], ["u", "b"]]
    otr, ote = run(tmp_path, train, test, cols, 0)
    # test: S = all rows with a target: a -> 1,0 ; b -> 0
    np.testing.assert_allclose(values(ote)[:, 0], [0.5, 0.0], atol=1e-6, rtol=0)
    # fold 0 rows use fold 1 rows with a target (4: b=0, 5: a=0); fold 1 rows use row 2 (a=1)
    np.testing.assert_allclose(values(otr)[:, 0], [0.0, 0.0, 1.0, 1.0, 1.0, 0.0], atol=1e-6, rtol=0)


def test_regression_target_three_columns(tmp_path):
    rng = np.random.default_rng(77)
    train, test = [], []
    for i in range(500):
        cats = [str(rng.integers(0, k)) for k in (4, 9, 30)]
        y = "" if rng.random() < 0.05 else "%.5f" % (rng.normal(10, 4) + int(cats[0]))
        train.append([f"r-{i}", *cats, y, str(rng.integers(0, 3))])
    for i in range(200):
        test.append([f"q-{i}", *[str(rng.integers(0, k + 2)) for k in (4, 9, 30)]])
    cols = ["k4", "k9", "k30"]
    otr, ote = run(tmp_path, train, test, cols, 0.0, target="amount", fold="split")
    assert otr[0] == ["id", "te_k4", "te_k9", "te_k30"]
    want_tr, want_te = reference(train, test, cols, 0.0)
    np.testing.assert_allclose(values(otr), np.array(want_tr), atol=1e-6, rtol=0)
    np.testing.assert_allclose(values(ote), np.array(want_te), atol=1e-6, rtol=0)
