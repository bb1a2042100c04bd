import csv
import json
import statistics
from collections import defaultdict
from pathlib import Path

import pytest


def reference():
    vals = defaultdict(list)
    for r in csv.DictReader(open("/app/readings.csv")):
        if r["value"].strip():
            vals[r["sensor"]].append((r["ts"], r["value"], float(r["value"])))
    summary, out = {}, []
    for s, rows in vals.items():
        xs = [x for _, _, x in rows]
        m = statistics.median(xs)
        dev = [abs(x - m) for x in xs]
        mad = statistics.median(dev)
        cnt = 0
        for ts, raw, x in rows:
            if mad > 0:
                z = 0.6745 * (x - m) / mad
            elif sum(dev) > 0:
                z = (x - m) / (1.253314 * (sum(dev) / len(dev)))
            else:
                z = 0.0
            if abs(z) > 3.5:
                cnt += 1
                out.append((s, ts, raw, z))
        summary[s] = {"n": len(xs), "median": m, "mad": mad, "outliers": cnt}
    return summary, sorted(out)


SUMMARY, OUT = reference()


def test_summary():
    got = json.loads(Path("/app/summary.json").read_text())
    assert sorted(got) == sorted(SUMMARY)
    for s, e in SUMMARY.items():
        assert got[s]["n"] == e["n"], s
        assert got[s]["median"] == pytest.approx(e["median"], abs=1e-6), s
        assert got[s]["mad"] == pytest.approx(e["mad"], abs=1e-6), s
        assert got[s]["outliers"] == e["outliers"], s


def test_outlier_rows():
    rows = list(csv.reader(open("/app/outliers.csv")))
    assert rows[0] == ["sensor", "ts", "value", "score"]
    assert [(r[0], r[1]) for r in rows[1:]] == [(s, t) for s, t, _, _ in OUT]


def test_outlier_values_and_scores():
    rows = list(csv.reader(open("/app/outliers.csv")))[1:]
    for r, (s, t, raw, z) in zip(rows, OUT):
        assert float(r[2]) == pytest.approx(float(raw), abs=1e-9)
        assert float(r[3]) == pytest.approx(round(z, 3), abs=1.1e-3)


def test_zero_mad_sensor_handled():
    assert SUMMARY["FLAT-0"]["mad"] == 0
    got = json.loads(Path("/app/summary.json").read_text())
    assert got["FLAT-0"]["outliers"] == SUMMARY["FLAT-0"]["outliers"] > 0
