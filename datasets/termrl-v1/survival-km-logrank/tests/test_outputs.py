import csv
import datetime as dt
import json
import math
from pathlib import Path

import pytest
from scipy import stats


def load():
    rows, excl = [], 0
    for r in csv.DictReader(open("/app/trial.csv")):
        if not r["last_date"]:
            excl += 1
            continue
        t = (dt.date.fromisoformat(r["last_date"]) - dt.date.fromisoformat(r["enrolled"])).days
        if t < 0:
            excl += 1
            continue
        rows.append((r["arm"], t, r["status"] == "dead"))
    return rows, excl


ROWS, EXCL = load()


def km(rows):
    times = sorted({t for _, t, e in rows if e})
    S, acc, med = 1.0, 0.0, None
    s365, a365 = 1.0, 0.0
    for t in times:
        n = sum(1 for _, u, _ in rows if u >= t)
        d = sum(1 for _, u, e in rows if u == t and e)
        S *= 1 - d / n
        acc += d / (n * (n - d)) if n > d else 0.0
        if med is None and S <= 0.5:
            med = t
        if t <= 365:
            s365, a365 = S, acc
    se = s365 * math.sqrt(a365)
    return {"n": len(rows), "events": sum(e for _, _, e in rows), "median_days": med, "surv_365": s365,
            "ci95_365": [max(0.0, s365 - 1.959964 * se), min(1.0, s365 + 1.959964 * se)]}


@pytest.fixture(scope="module")
def res():
    p = Path("/app/survival.json")
    assert p.is_file()
    return json.loads(p.read_text())


def test_excluded(res):
    assert res["excluded"] == EXCL


@pytest.mark.parametrize("arm", ["control", "treatment"])
def test_counts(res, arm):
    exp = km([r for r in ROWS if r[0] == arm])
    assert res[arm]["n"] == exp["n"]
    assert res[arm]["events"] == exp["events"]


@pytest.mark.parametrize("arm", ["control", "treatment"])
def test_km_estimates(res, arm):
    exp = km([r for r in ROWS if r[0] == arm])
    assert res[arm]["median_days"] == exp["median_days"]
    assert res[arm]["surv_365"] == pytest.approx(exp["surv_365"], abs=1e-6)
    lo, hi = res[arm]["ci95_365"]
    assert lo == pytest.approx(exp["ci95_365"][0], abs=1e-6)
    assert hi == pytest.approx(exp["ci95_365"][1], abs=1e-6)


def test_logrank(res):
    times = sorted({t for _, t, e in ROWS if e})
    O = E = V = D = 0.0
    for t in times:
        n = sum(1 for _, u, _ in ROWS if u >= t)
        n1 = sum(1 for a, u, _ in ROWS if u >= t and a == "treatment")
        d = sum(1 for _, u, e in ROWS if u == t and e)
        d1 = sum(1 for a, u, e in ROWS if u == t and e and a == "treatment")
        O += d1
        D += d
        E += d * n1 / n
        if n > 1:
            V += d * (n1 / n) * (1 - n1 / n) * (n - d) / (n - 1)
    chi2 = (O - E) ** 2 / V
    lr = res["logrank"]
    assert lr["chi2"] == pytest.approx(chi2, rel=1e-5)
    assert lr["p_value"] == pytest.approx(stats.chi2.sf(chi2, 1), rel=1e-4)
    assert lr["hazard_ratio"] == pytest.approx((O / E) / ((D - O) / (D - E)), rel=1e-5)
