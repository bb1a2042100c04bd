import csv
import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

TRUTH = json.loads(Path("/tests/truth.json").read_text())
DB = "/app/shop.db"


@pytest.fixture(scope="module")
def db():
    assert Path(DB).is_file()
    con = sqlite3.connect(DB)
    yield con
    con.close()


def test_schema_constraints(db):
    cols = {r[1]: r for r in db.execute("PRAGMA table_info(orders)")}
    assert set(cols) == {"order_id", "customer_id", "sku", "quantity", "ordered_at", "line_total_cents"}
    assert cols["order_id"][5] == 1
    fks = {(r[2], r[3], r[4]) for r in db.execute("PRAGMA foreign_key_list(orders)")}
    assert ("customers", "customer_id", "customer_id") in fks
    assert ("products", "sku", "sku") in fks
    con = sqlite3.connect(":memory:")
    # replay the DDL in a scratch DB and check the constraints actually fire
    for (sql,) in db.execute("SELECT sql FROM sqlite_master WHERE type='table' AND name IN ('customers','products','orders')"):
        con.execute(sql)
    con.execute("PRAGMA foreign_keys=ON")
    con.execute("INSERT INTO customers VALUES (1,'a','a@b.c','2020-01-01')")
    con.execute("INSERT INTO products VALUES ('S','t',5)")
    for bad in ["INSERT INTO customers VALUES (2,'b','a@b.c','2020-01-01')",
                "INSERT INTO products VALUES ('T','t',0)",
                "INSERT INTO orders VALUES (1,1,'S',0,'2020-01-01 00:00:00',0)",
                "INSERT INTO orders VALUES (2,9,'S',1,'2020-01-01 00:00:00',5)",
                "INSERT INTO customers VALUES (3,NULL,'x@y.z','2020-01-01')"]:
        with pytest.raises(sqlite3.IntegrityError):
            con.execute(bad)


def test_customers(db):
    got = {str(r[0]): {"name": r[1], "email": r[2], "signup_date": r[3]}
           for r in db.execute("SELECT customer_id, name, email, signup_date FROM customers")}
    assert got == TRUTH["customers"]


def test_products(db):
    got = {r[0]: {"title": r[1], "price_cents": r[2]} for r in db.execute("SELECT sku, title, price_cents FROM products")}
    assert got == TRUTH["products"]


def test_orders_rows(db):
    got = {str(r[0]): {"customer_id": r[1], "sku": r[2], "quantity": r[3], "ordered_at": r[4], "line_total_cents": r[5]}
           for r in db.execute("SELECT order_id, customer_id, sku, quantity, ordered_at, line_total_cents FROM orders")}
    assert set(got) == set(TRUTH["orders"])
    bad = [k for k in got if got[k] != TRUTH["orders"][k]]
    assert not bad, (bad[:3], [got[k] for k in bad[:3]], [TRUTH["orders"][k] for k in bad[:3]])


def test_view_totals(db):
    exp = {int(c): [0, 0] for c in TRUTH["customers"]}
    for o in TRUTH["orders"].values():
        exp[o["customer_id"]][0] += 1
        exp[o["customer_id"]][1] += o["line_total_cents"]
    got = {r[0]: [r[1], r[2]] for r in db.execute("SELECT customer_id, order_count, total_cents FROM customer_totals")}
    assert got == exp


def test_rejects_file():
    rows = list(csv.reader(open("/app/rejects.csv", newline="")))
    assert rows[0] == ["source", "key", "reason"]
    assert rows[1:] == TRUTH["rejects"]


def test_foreign_keys_consistent(db):
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
