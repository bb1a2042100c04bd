import csv
import subprocess
from datetime import date, timedelta

import numpy as np
import pytest

COLS = ["entity", "date", "lag_1", "lag_7", "roll_mean_7", "roll_max_28", "days_since_prev"]


def gen(seed, entities=("007", "7", "sku-A", "b"), n_each=120):
    rng = np.random.default_rng(seed)
    rows = []
    for e in entities:
        d = date(2023, 12, 1) + timedelta(days=int(rng.integers(0, 60)))
        for _ in range(n_each):
            d += timedelta(days=int(rng.choice([1, 1, 1, 1, 2, 3, 6, 8, 9])))
            v = "" if rng.random() < 0.12 else "%.3f" % (rng.normal(20, 9))
            rows.append([e, d.isoformat(), v])
    return [rows[i] for i in rng.permutation(len(rows))]


def reference(rows):
    hist = {}
    for e, d, v in rows:
        hist.setdefault(e, {})[date.fromisoformat(d).toordinal()] = None if v == "" else float(v)
    out = []
    for e, ds, _ in rows:
        h = hist[e]
        d = date.fromisoformat(ds).toordinal()
        w7 = [h[x] for x in range(d - 7, d) if h.get(x) is not None]
        w28 = [h[x] for x in range(d - 28, d) if h.get(x) is not None]
        prev = max((x for x in h if x < d), default=None)
        out.append([e, ds, h.get(d - 1), h.get(d - 7), float(np.mean(w7)) if len(w7) >= 3 else None,
                    max(w28) if w28 else None, None if prev is None else d - prev])
    return out


def run(tmp, rows):
    with open(tmp / "in.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["entity", "date", "value"])
        w.writerows(rows)
    r = subprocess.run(["python3", "/app/features.py", str(tmp / "in.csv"), str(tmp / "out.csv")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    with open(tmp / "out.csv", newline="") as f:
        got = list(csv.reader(f))
    assert got[0] == COLS
    assert len(got) == len(rows) + 1
    return got[1:]


def same(got, want, col):
    j = COLS.index(col)
    bad = []
    for g, w in zip(got, want):
        if w[j] is None:
            if g[j] != "":
                bad.append((g[:2], g[j], w[j]))
        elif g[j] == "" or abs(float(g[j]) - w[j]) > 1e-9:
            bad.append((g[:2], g[j], w[j]))
    assert not bad, f"{len(bad)} wrong {col} values, e.g. {bad[:3]}"


@pytest.fixture(scope="module")
def main_case(tmp_path_factory):
    rows = gen(6060)
    return rows, run(tmp_path_factory.mktemp("m"), rows), reference(rows)


def test_rows_in_input_order_verbatim(main_case):
    rows, got, _ = main_case
    assert [g[:2] for g in got] == [r[:2] for r in rows]


def test_lags(main_case):
    rows, got, want = main_case
    same(got, want, "lag_1")
    same(got, want, "lag_7")


def test_rolling_mean_calendar_window(main_case):
    rows, got, want = main_case
    same(got, want, "roll_mean_7")


def test_rolling_max_28(main_case):
    rows, got, want = main_case
    same(got, want, "roll_max_28")


def test_days_since_prev(main_case):
    rows, got, want = main_case
    same(got, want, "days_since_prev")


def test_own_value_never_used(tmp_path):
    rows = gen(717, entities=("x", "y"), n_each=80)
    a = run(tmp_path, rows)
    changed = [r[:] for r in rows]
    target = sorted({r[1] for r in rows})[40]
    for r in changed:
        if r[1] == target:
            r[2] = "100000"
    b = run(tmp_path, changed)
    for r, ga, gb in zip(rows, a, b):
        if r[1] <= target:
            assert ga == gb, (r, ga, gb)
    assert a != b


def test_window_edges_and_missing_values(tmp_path):
    rows = [["k", "2024-02-20", "8"], ["k", "2024-02-21", "1"], ["k", "2024-02-22", "2"],
            ["k", "2024-02-26", ""], ["k", "2024-02-28", "4"], ["k", "2024-02-29", "5"],
            ["k", "2024-03-01", "6"], ["k", "2024-03-07", ""], ["j", "2024-03-01", "3"]]
    got = run(tmp_path, rows)
    by = {(g[0], g[1]): g[2:] for g in got}
    # 2024-02-29: lag_1 = 02-28 (4), lag_7 = 02-22 (2); window 02-22..02-28 -> 2, 4 (02-26 missing) -> < 3 values
    assert [float(v) if v else None for v in by[("k", "2024-02-29")][:2]] == [4.0, 2.0]
    assert by[("k", "2024-02-29")][2] == ""
    # 2024-03-01: window 02-23..02-29 -> 4, 5 ; 02-22 is outside -> empty; max over 28 days = 8
    assert by[("k", "2024-03-01")][2] == "" and float(by[("k", "2024-03-01")][3]) == 8.0
    # 2024-03-07: window 02-29..03-06 -> 5, 6 only; lag_7 = 02-29 = 5; prev row 03-01 -> 6 days
    assert float(by[("k", "2024-03-07")][1]) == 5.0 and by[("k", "2024-03-07")][2] == ""
    assert by[("k", "2024-03-07")][4] == "6"
    # 2024-02-28: window 02-21..02-27 -> 1, 2 (+missing) -> empty; days since 02-26 (missing value row) = 2
    assert by[("k", "2024-02-28")][2] == "" and by[("k", "2024-02-28")][4] == "2"
    # other entity sees nothing of k
    assert by[("j", "2024-03-01")] == ["", "", "", "", ""]
    # first row: all empty
    assert by[("k", "2024-02-20")] == ["", "", "", "", ""]
    want = reference(rows)
    for col in COLS[2:]:
        same(got, want, col)
