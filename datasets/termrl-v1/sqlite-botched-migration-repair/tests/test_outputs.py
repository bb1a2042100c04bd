"""/app/shop/repair.py on shops generated here: a version-1 backup, the same data run through the faulty
migrate_v2.py (the tests' copy) and then through the application's later writes; the repaired database is
compared with the same data run through a correct migration and the same later writes."""
import hashlib
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from collections import Counter
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from shopgen import app_activity, make_v1  # noqa: E402

TOOL = os.environ.get("REPAIR", "/app/shop/repair.py")
V1 = (HERE / "schema_v1.sql").read_text()
SEED = int.from_bytes(os.urandom(4), "big")
APPLIED = "2024-06-10 08:00:00"


def digest(p):
    return hashlib.sha256(Path(p).read_bytes()).hexdigest()


def migrate_faulty(db):
    subprocess.run([sys.executable, str(HERE / "migrate_v2.py"), str(db)], check=True, capture_output=True, timeout=60)
    con = sqlite3.connect(db)
    con.execute("UPDATE _migrations SET applied_at = ?", (APPLIED,))
    con.commit()
    con.close()


def to_utc(local):
    dt = datetime.strptime(local[:19], "%Y-%m-%d %H:%M:%S")
    sign = 1 if local[19] == "+" else -1
    return (dt - sign * timedelta(hours=int(local[20:22]), minutes=int(local[23:25]))).strftime("%Y-%m-%d %H:%M:%S")


def migrate_correct(backup, db):
    """The migration as it should have been: the faulty one's schema, with the values a correct one gives."""
    migrate_faulty(db)
    b = sqlite3.connect(backup)
    con = sqlite3.connect(db)
    for pid, price in b.execute("SELECT id, price FROM products"):
        con.execute("UPDATE products SET price_cents = ? WHERE id = ?", (int(Decimal(price) * 100), pid))
    for oid, created in b.execute("SELECT id, created_at FROM orders"):
        con.execute("UPDATE orders SET created_utc = ? WHERE id = ?", (to_utc(created), oid))
    con.executemany("INSERT OR IGNORE INTO order_notes VALUES (?,?,?)", b.execute("SELECT id, order_id, note FROM order_notes").fetchall())
    con.commit()
    con.close()


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    d = tmp_path_factory.mktemp("shop")
    backup, current, truth = d / "backup.db", d / "current.db", d / "truth.db"
    make_v1(backup, V1, SEED, n_products=60 + SEED % 40, n_orders=250 + SEED % 100, n_notes=180 + SEED % 50)
    shutil.copy(backup, current)
    shutil.copy(backup, truth)
    migrate_faulty(current)
    migrate_correct(backup, truth)
    news = {}
    for path in (current, truth):
        con = sqlite3.connect(path)
        con.execute("PRAGMA foreign_keys = ON")
        news[path] = app_activity(con, SEED + 1, APPLIED, steps=160)
        con.close()
    con = sqlite3.connect(current)
    new_notes = {i: con.execute("SELECT order_id, note FROM order_notes WHERE id = ?", (i,)).fetchone() for i in news[current]}
    new_notes = {i: v for i, v in new_notes.items() if v}
    con.close()
    pristine = d / "pristine.db"
    shutil.copy(current, pristine)
    bdig = digest(backup)
    p = subprocess.run([sys.executable, TOOL, str(backup), str(current)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, f"repair.py failed: {p.stderr[-800:]}"
    assert digest(backup) == bdig, "the backup must not be modified"
    return dict(backup=backup, current=current, truth=truth, pristine=pristine, new_notes=new_notes, dir=d)


def rows(db, sql):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_prices(shop):
    got = rows(shop["current"], "SELECT id, sku, price_cents, updated_at FROM products ORDER BY id")
    want = rows(shop["truth"], "SELECT id, sku, price_cents, updated_at FROM products ORDER BY id")
    bad = [(g, w) for g, w in zip(got, want) if g != w]
    assert len(got) == len(want) and not bad, f"{len(bad)} products differ, e.g. {bad[:3]} (seed {SEED})"


def test_orders(shop):
    got = rows(shop["current"], "SELECT id, product_id, qty, created_utc FROM orders ORDER BY id")
    want = rows(shop["truth"], "SELECT id, product_id, qty, created_utc FROM orders ORDER BY id")
    bad = [(g, w) for g, w in zip(got, want) if g != w]
    assert len(got) == len(want) and not bad, f"{len(bad)} orders differ, e.g. {bad[:3]} (seed {SEED})"


def test_notes(shop):
    got = Counter(rows(shop["current"], "SELECT order_id, note FROM order_notes"))
    want = Counter(rows(shop["truth"], "SELECT order_id, note FROM order_notes"))
    assert got == want, f"missing {list((want - got).elements())[:3]}, extra {list((got - want).elements())[:3]} (seed {SEED})"
    for i, v in shop["new_notes"].items():
        assert rows(shop["current"], f"SELECT order_id, note FROM order_notes WHERE id = {i}") == [v], "notes written after the migration keep their ids"
    taken = set(shop["new_notes"])
    alive = {r[0] for r in rows(shop["current"], "SELECT id FROM orders")}
    current = dict((i, (o, n)) for i, o, n in rows(shop["current"], "SELECT id, order_id, note FROM order_notes"))
    for i, o, n in rows(shop["backup"], "SELECT id, order_id, note FROM order_notes"):
        if o in alive and i not in taken:
            assert current.get(i) == (o, n), f"restored note {i} must keep its id"


def test_schema_and_integrity(shop):
    q = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
    assert rows(shop["current"], q) == rows(shop["pristine"], q), "the schema must stay as it is"
    assert rows(shop["current"], "PRAGMA user_version") == [(2,)]
    assert rows(shop["current"], "SELECT * FROM _migrations") == rows(shop["pristine"], "SELECT * FROM _migrations")
    assert rows(shop["current"], "PRAGMA foreign_key_check") == []
    assert rows(shop["current"], "PRAGMA integrity_check") == [("ok",)]


def test_second_run_changes_nothing(shop):
    again = shop["dir"] / "again.db"
    shutil.copy(shop["current"], again)
    d = digest(again)
    p = subprocess.run([sys.executable, TOOL, str(shop["backup"]), str(again)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and digest(again) == d, "repairing a repaired database must change nothing"


def test_refuses_wrong_inputs(shop):
    target = shop["dir"] / "t.db"
    shutil.copy(shop["pristine"], target)
    d = digest(target)
    # backup and current swapped: nothing may change
    p = subprocess.run([sys.executable, TOOL, str(target), str(shop["backup"])], capture_output=True, text=True, timeout=120)
    assert p.returncode != 0
    assert digest(target) == d
