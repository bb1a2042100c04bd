"""quote.py on parcels generated here (never seen by the agent), priced by the carrier's true tariff."""
import csv
import os
import subprocess
import sys
from decimal import Decimal

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parcels import parcels  # noqa: E402
from tariff import price  # noqa: E402

COLS = ["id", "zone", "service", "weight_g", "length_cm", "width_cm", "height_cm", "residential", "declared_value"]


def quote(tmp, rows, name):
    src, out = tmp / f"{name}.csv", tmp / f"{name}-out.csv"
    with open(src, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLS)
        for p in rows:
            w.writerow([p[c] for c in COLS])
    r = subprocess.run(["python3", "/app/quote.py", str(src), str(out)], capture_output=True, text=True,
                       timeout=300, cwd="/app")
    assert r.returncode == 0, r.stderr[-2000:]
    got = list(csv.reader(open(out, newline="")))
    return got


def truth(p):
    return price(p["zone"], p["service"], p["weight_g"], p["length_cm"], p["width_cm"], p["height_cm"],
                 p["residential"], p["declared_value"])


def check_exact(got, rows, min_share=1.0):
    assert got[0] == ["id", "price"], got[0]
    assert [g[0] for g in got[1:]] == [p["id"] for p in rows], "ids missing or out of order"
    wrong = []
    for g, p in zip(got[1:], rows):
        assert len(g[1].split(".")[-1]) == 2 and "." in g[1], f"price not written with 2 decimals: {g[1]!r}"
        if Decimal(g[1]) != truth(p):
            wrong.append((p, g[1], str(truth(p))))
    share = 1 - len(wrong) / len(rows)
    assert share >= min_share, f"{len(wrong)} of {len(rows)} prices wrong, e.g. {wrong[:3]}"
    for p, g, t in wrong:
        assert abs(Decimal(g) - Decimal(t)) <= Decimal("0.01"), (p, g, t)


@pytest.fixture(scope="module")
def general(tmp_path_factory):
    rows = parcels(771, 4000)
    return rows, quote(tmp_path_factory.mktemp("q"), rows, "general")


def test_output_shape(general):
    rows, got = general
    assert got[0] == ["id", "price"]
    assert len(got) == len(rows) + 1
    assert [g[0] for g in got[1:]] == [p["id"] for p in rows]


def test_general_prices_to_the_cent(general):
    rows, got = general
    # a rare half-cent tie rounded the other way is tolerated (at most 0.5 % of rows, by one cent)
    check_exact(got, rows, min_share=0.995)


def test_light_bulky_parcels(tmp_path):
    rows = [p for p in parcels(772, 6000)
            if p["length_cm"] * p["width_cm"] * p["height_cm"] / 5000 > p["weight_g"] / 1000][:400]
    assert len(rows) >= 200
    check_exact(quote(tmp_path, rows, "bulky"), rows, min_share=0.995)


def test_half_kilogram_steps(tmp_path):
    rows = []
    for i, wg in enumerate([20, 499, 500, 501, 999, 1000, 1001, 1499, 1500, 1501, 7250, 7499, 7500, 7501, 29999]):
        for zone in (1, 4, 6):
            for service in ("standard", "express"):
                rows.append({"id": f"H{i:02d}{zone}{service[0]}", "zone": zone, "service": service, "weight_g": wg,
                             "length_cm": 10, "width_cm": 10, "height_cm": 10, "residential": 0,
                             "declared_value": "0.00"})
    check_exact(quote(tmp_path, rows, "steps"), rows)


def test_surcharges_combined(tmp_path):
    rows = []
    k = 0
    for residential in (0, 1):
        for dv in ("0.00", "250.00", "250.01", "251.00", "999.99", "2999.50"):
            for dims in ((20, 20, 20), (101, 10, 10), (100, 40, 10), (30, 150, 30)):
                for service in ("standard", "express"):
                    k += 1
                    rows.append({"id": f"S{k:04d}", "zone": 1 + k % 6, "service": service, "weight_g": 900 + 137 * k,
                                 "length_cm": dims[0], "width_cm": dims[1], "height_cm": dims[2],
                                 "residential": residential, "declared_value": dv})
    check_exact(quote(tmp_path, rows, "surcharges"), rows, min_share=0.99)
