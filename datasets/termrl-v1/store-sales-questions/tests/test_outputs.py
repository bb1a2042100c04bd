import csv
import hashlib
import json
from collections import defaultdict
from pathlib import Path

import pytest

ROWS = list(csv.DictReader(open("/app/transactions.csv", newline="")))
for r in ROWS:
    r["q"] = int(r["quantity"])
    r["v"] = r["q"] * float(r["unit_price"])


@pytest.fixture(scope="module")
def ans():
    p = Path("/app/answers.json")
    assert p.is_file()
    return json.loads(p.read_text())


def test_keys(ans):
    assert sorted(ans) == sorted(["net_revenue", "best_month", "top_products", "avg_order_value",
                                  "multi_product_share", "store_return_rate"])


def test_net_revenue(ans):
    assert ans["net_revenue"] == pytest.approx(sum(r["v"] for r in ROWS), abs=0.01)


def test_best_month(ans):
    m = defaultdict(float)
    for r in ROWS:
        m[r["date"][:7]] += r["v"]
    assert ans["best_month"] == max(m, key=m.get)


def test_top_products(ans):
    u = defaultdict(int)
    for r in ROWS:
        u[r["product"]] += r["q"]
    assert ans["top_products"] == sorted(u, key=lambda p: (-u[p], p))[:3]


def test_avg_order_value(ans):
    o = defaultdict(float)
    for r in ROWS:
        o[r["order_id"]] += r["v"]
    assert ans["avg_order_value"] == pytest.approx(sum(o.values()) / len(o), abs=0.006)


def test_multi_product_share(ans):
    o = defaultdict(set)
    for r in ROWS:
        o[r["order_id"]]
        if r["q"] > 0:
            o[r["order_id"]].add(r["product"])
    exp = sum(len(s) >= 2 for s in o.values()) / len(o)
    assert ans["multi_product_share"] == pytest.approx(exp, abs=6e-5)


def test_store_return_rate(ans):
    ret, sale = defaultdict(int), defaultdict(int)
    for r in ROWS:
        (ret if r["q"] < 0 else sale)[r["store"]] += 1
    got = ans["store_return_rate"]
    assert sorted(got) == sorted(sale)
    for s in sale:
        assert got[s] == pytest.approx(ret[s] / sale[s], abs=6e-5), s


# The expected answers are computed from /app/transactions.csv itself, so it must be the file the image ships.
DATA_SHA = "68169bab64b4ab2d644b67a3097d69fe0774c33192d2ec807b0d33b5664c7eee"


def test_data_untouched():
    assert hashlib.sha256(Path("/app/transactions.csv").read_bytes()).hexdigest() == DATA_SHA
