import csv
import json
import math
from collections import defaultdict
from pathlib import Path

import pytest
from scipy import stats


def reference():
    var = defaultdict(set)
    at = {}
    for r in csv.DictReader(open("/app/assignments.csv")):
        var[r["user_id"]].add(r["variant"])
        at[r["user_id"]] = min(at.get(r["user_id"], r["assigned_at"]), r["assigned_at"])
    bots = {l.strip() for l in open("/app/bots.txt") if l.strip() and not l.startswith("#")}
    excluded = {u for u in var if len(var[u]) > 1 or u in bots}
    rev = defaultdict(float)
    conv = set()
    for r in csv.DictReader(open("/app/events.csv")):
        u = r["user_id"]
        if r["event"] == "purchase" and u in at and u not in excluded and r["ts"] > at[u]:
            rev[u] += float(r["value"])
            conv.add(u)
    groups = {"A": [], "B": []}
    convs = {"A": 0, "B": 0}
    for u in var:
        if u in excluded:
            continue
        v = next(iter(var[u]))
        groups[v].append(rev.get(u, 0.0))
        convs[v] += u in conv
    return groups, convs, len(excluded)


G, C, EXCL = reference()


@pytest.fixture(scope="module")
def res():
    p = Path("/app/results.json")
    assert p.is_file()
    return json.loads(p.read_text())


def test_counts(res):
    for v in "AB":
        assert res[v]["users"] == len(G[v])
        assert res[v]["converters"] == C[v]
    assert res["excluded_users"] == EXCL


def test_rates_and_revenue(res):
    for v in "AB":
        assert res[v]["rate"] == pytest.approx(C[v] / len(G[v]), rel=1e-5)
        assert res[v]["revenue_per_user"] == pytest.approx(sum(G[v]) / len(G[v]), rel=1e-5)


def test_z_test(res):
    nA, nB = len(G["A"]), len(G["B"])
    p = (C["A"] + C["B"]) / (nA + nB)
    z = (C["B"] / nB - C["A"] / nA) / math.sqrt(p * (1 - p) * (1 / nA + 1 / nB))
    assert res["z"] == pytest.approx(z, rel=1e-4)
    assert res["p_value"] == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-4)


def test_ci(res):
    nA, nB = len(G["A"]), len(G["B"])
    rA, rB = C["A"] / nA, C["B"] / nB
    se = math.sqrt(rA * (1 - rA) / nA + rB * (1 - rB) / nB)
    lo, hi = res["diff_ci95"]
    assert lo == pytest.approx(rB - rA - 1.959964 * se, abs=1e-6)
    assert hi == pytest.approx(rB - rA + 1.959964 * se, abs=1e-6)


def test_welch(res):
    t = stats.ttest_ind(G["B"], G["A"], equal_var=False)
    assert res["welch_t"] == pytest.approx(t.statistic, rel=1e-4)
    assert res["welch_p"] == pytest.approx(t.pvalue, rel=1e-4)
