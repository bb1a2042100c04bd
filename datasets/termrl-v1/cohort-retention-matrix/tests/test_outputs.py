import csv
import json
from collections import defaultdict

import pytest


def ym(d):
    return int(d[:4]) * 12 + int(d[5:7]) - 1


def expected():
    users = {r["user_id"]: r["signup_date"] for r in csv.DictReader(open("/app/users.csv"))}
    active = defaultdict(set)
    last = None
    for r in csv.DictReader(open("/app/activity.csv")):
        s = users.get(r["user_id"])
        if s is None or r["date"] < s:
            continue
        active[(ym(s), ym(r["date"]) - ym(s))].add(r["user_id"])
        last = max(last or 0, ym(r["date"]))
    sizes = defaultdict(int)
    for s in users.values():
        sizes[ym(s)] += 1
    rows, num, den = {}, [0] * 6, [0] * 6
    for c in sorted(sizes):
        vals = []
        for k in range(6):
            if c + k > last:
                vals.append(None)
            else:
                n = len(active[(c, k)])
                num[k] += n
                den[k] += sizes[c]
                vals.append(n / sizes[c])
        rows[f"{c // 12}-{c % 12 + 1:02d}"] = (sizes[c], vals)
    return rows, f"{last // 12}-{last % 12 + 1:02d}", [num[k] / den[k] if den[k] else None for k in range(6)]


ROWS, LAST, WEIGHTED = expected()


@pytest.fixture(scope="module")
def table():
    r = list(csv.reader(open("/app/retention.csv")))
    assert r[0] == ["cohort", "size", "m0", "m1", "m2", "m3", "m4", "m5"]
    return r[1:]


def test_cohorts_and_sizes(table):
    assert [r[0] for r in table] == list(ROWS)
    assert [int(r[1]) for r in table] == [v[0] for v in ROWS.values()]


def test_rates(table):
    for r in table:
        for k, e in enumerate(ROWS[r[0]][1]):
            if e is None:
                assert r[2 + k] == "", (r[0], k)
            else:
                assert float(r[2 + k]) == pytest.approx(e, abs=6e-5), (r[0], k)


def test_summary():
    s = json.load(open("/app/summary.json"))
    assert s["last_month"] == LAST
    for k, e in enumerate(WEIGHTED):
        got = s["weighted_retention"][f"m{k}"]
        if e is None:
            assert got is None
        else:
            assert got == pytest.approx(e, abs=6e-5), k


def test_some_cells_unobserved(table):
    assert any(r[7] == "" for r in table) and any(r[7] != "" for r in table)
