import csv
import json

import pytest


def expected():
    prods = {r["sku"]: r for r in csv.DictReader(open("/app/products.csv"))}
    stock = dict.fromkeys(prods, 0)
    for line in open("/app/moves.jsonl"):
        m = json.loads(line)
        s = m["sku"].strip().upper()
        if s in stock:
            stock[s] += {"in": 1, "out": -1, "adjust": 1}[m["kind"]] * m["qty"]
    rows = [[s, p["name"], p["category"], str(stock[s]), p["reorder_point"], str(int(p["reorder_point"]) - stock[s])]
            for s, p in prods.items() if stock[s] < int(p["reorder_point"])]
    return sorted(rows, key=lambda r: (-int(r[5]), r[0]))


EXP = expected()


@pytest.fixture(scope="module")
def rows():
    return list(csv.reader(open("/app/low_stock.csv")))


def test_header(rows):
    assert rows[0] == ["sku", "name", "category", "stock", "reorder_point", "shortfall"]


def test_selected_products(rows):
    assert sorted(r[0] for r in rows[1:]) == sorted(r[0] for r in EXP)


def test_numbers(rows):
    got = {r[0]: (int(r[3]), int(r[4]), int(r[5])) for r in rows[1:]}
    for r in EXP:
        assert got[r[0]] == (int(r[3]), int(r[4]), int(r[5])), r[0]


def test_order_and_text(rows):
    assert [r[:3] for r in rows[1:]] == [r[:3] for r in EXP]
    assert len(EXP) >= 5
