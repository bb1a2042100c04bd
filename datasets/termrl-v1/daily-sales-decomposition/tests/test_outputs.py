import csv
import datetime as dt
import json

import numpy as np
import pytest

NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def reference():
    obs = {dt.date.fromisoformat(r["date"]): float(r["sales"]) for r in csv.DictReader(open("/app/sales.csv"))}
    d0, d1 = min(obs), max(obs)
    days = [d0 + dt.timedelta(i) for i in range((d1 - d0).days + 1)]
    known = sorted(obs)
    y, filled = [], []
    for d in days:
        if d in obs:
            y.append(obs[d]); filled.append(0)
        else:
            lo = max(k for k in known if k < d)
            hi = min(k for k in known if k > d)
            f = (d - lo).days / (hi - lo).days
            y.append(obs[lo] + f * (obs[hi] - obs[lo])); filled.append(1)
    n = len(y)
    trend = [None] * n
    for t in range(3, n - 3):
        trend[t] = sum(y[t - 3:t + 4]) / 7
    sums = [[] for _ in range(7)]
    for t in range(n):
        if trend[t] is not None:
            sums[days[t].weekday()].append(y[t] - trend[t])
    raw = [sum(v) / len(v) for v in sums]
    m = sum(raw) / 7
    seas = [v - m for v in raw]
    resid = [None if trend[t] is None else y[t] - trend[t] - seas[days[t].weekday()] for t in range(n)]
    rs = np.array([r for r in resid if r is not None])
    med = np.median(rs)
    mad = np.median(np.abs(rs - med))
    anom = [days[t].isoformat() for t in range(n) if resid[t] is not None and abs(resid[t] - med) > 3 * 1.4826 * mad]
    pos = np.array([t for t in range(n) if trend[t] is not None], float)
    tv = np.array([trend[t] for t in range(n) if trend[t] is not None])
    b, a = np.polyfit(pos, tv, 1)
    fc = [(days[-1] + dt.timedelta(k + 1), a + b * (n + k) + seas[(days[-1] + dt.timedelta(k + 1)).weekday()]) for k in range(14)]
    return days, y, filled, trend, seas, resid, anom, b, fc


DAYS, Y, FILLED, TREND, SEAS, RESID, ANOM, SLOPE, FC = reference()


@pytest.fixture(scope="module")
def dec():
    rows = list(csv.DictReader(open("/app/decomposition.csv")))
    assert [r["date"] for r in rows] == [d.isoformat() for d in DAYS]
    return rows


def num(s):
    return None if s.strip() in ("", "nan", "NaN") else float(s)


def test_filled_values(dec):
    assert [int(r["filled"]) for r in dec] == FILLED
    for r, v in zip(dec, Y):
        assert float(r["sales"]) == pytest.approx(v, abs=1e-6), r["date"]


def test_trend_and_residuals(dec):
    for r, t, e in zip(dec, TREND, RESID):
        if t is None:
            assert num(r["trend"]) is None and num(r["resid"]) is None, r["date"]
        else:
            assert num(r["trend"]) == pytest.approx(t, abs=1e-6), r["date"]
            assert num(r["resid"]) == pytest.approx(e, abs=1e-6), r["date"]


def test_seasonal(dec):
    out = json.load(open("/app/anomalies.json"))
    for k, nm in enumerate(NAMES):
        assert out["seasonal_index"][nm] == pytest.approx(SEAS[k], abs=1e-6), nm
    for r, d in zip(dec, DAYS):
        assert num(r["seasonal"]) == pytest.approx(SEAS[d.weekday()], abs=1e-6)


def test_anomalies():
    out = json.load(open("/app/anomalies.json"))
    assert out["dates"] == ANOM
    assert len(ANOM) > 0
    assert out["trend_slope"] == pytest.approx(SLOPE, rel=1e-6)


def test_forecast():
    rows = list(csv.DictReader(open("/app/forecast.csv")))
    assert [r["date"] for r in rows] == [d.isoformat() for d, _ in FC]
    for r, (_, v) in zip(rows, FC):
        assert float(r["forecast"]) == pytest.approx(v, abs=1e-5)
