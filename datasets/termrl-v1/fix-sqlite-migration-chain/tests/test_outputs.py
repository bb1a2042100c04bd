"""/app/app/migrate.py on shop databases at versions 0, 2 and 3, filled here with random data; the result is
compared with schema.sql (structure and behaviour) and with the rows that were put in."""
import hashlib
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

APP = Path(os.environ.get("MIGRATE_APP", "/app/app"))
BASE = Path(__file__).parent / "base"
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
TRICKY_PRICES = [(19.99, 1999), (0.29, 29), (1.15, 115), (4.35, 435), (0.57, 57), (1005.1, 100510), (2.68, 268),
                 (0.1, 10), (8.2, 820), (33.33, 3333), (0.0, 0), (9.95, 995), (123456.78, 12345678), (1.005, 100)]


def migrate(db):
    return subprocess.run([sys.executable, str(APP / "migrate.py"), str(db)], capture_output=True, text=True, timeout=300)


def digest(p):
    return hashlib.sha256(Path(p).read_bytes()).hexdigest()


def run_script(con, path):
    con.executescript(Path(path).read_text())


class Shop:
    """A database at version 2 (or 3) plus what version 5 must contain."""

    def __init__(self, path, version=2, n_customers=40, n_orders=150):
        self.path = path
        con = sqlite3.connect(path)
        run_script(con, BASE / "001_initial.sql")
        run_script(con, BASE / "002_audit.sql")
        con.execute("PRAGMA user_version = 2")
        self.customers, self.orders, self.notes = {}, {}, {}
        for cid in sorted(RNG.sample(range(1, 10 ** 5), n_customers)):
            email = f"{''.join(RNG.choices('abcdefgh', k=6))}.{cid}@{RNG.choice(['Example.test', 'mail.test'])}"
            email = RNG.choice([email, email.upper(), email.title()])
            name = RNG.choice([None, "Ann Lee", "Bo", "Çelik, Ayşe"])
            created = f"20{RNG.randint(10, 24)}-0{RNG.randint(1, 9)}-1{RNG.randint(0, 9)}"
            con.execute("INSERT INTO customers VALUES (?,?,?,?)", (cid, email, name, created))
            self.customers[cid] = (email, name, created, "basic")
        for oid in sorted(RNG.sample(range(1, 10 ** 6), n_orders)):
            price, cents = RNG.choice(TRICKY_PRICES) if RNG.random() < 0.5 else (lambda c: (c / 100, c))(RNG.randint(0, 10 ** 6))
            cid = RNG.choice(sorted(self.customers))
            con.execute("INSERT INTO orders VALUES (?,?,?,?)", (oid, cid, price, "new"))
            self.orders[oid] = [cid, cents, "new"]
            for _ in range(RNG.choice([0, 1, 1, 2, 3])):
                body = RNG.choice(["call back", "gift wrap", "left at door", "Ω"]) + str(RNG.randint(0, 99))
                nid = con.execute("INSERT INTO order_notes (order_id, body) VALUES (?, ?)", (oid, body)).lastrowid
                self.notes[nid] = (oid, body, "system")
        for oid in RNG.sample(sorted(self.orders), 10):   # fills the audit table through the trigger
            st = RNG.choice(["paid", "shipped"])
            con.execute("UPDATE orders SET status = ? WHERE id = ?", (st, oid))
            self.orders[oid][2] = st
        self.audit = con.execute("SELECT * FROM audit ORDER BY id").fetchall()
        con.commit()
        if version == 3:
            con.execute("PRAGMA foreign_keys = OFF")
            run_script(con, BASE / "003_customer_email_nocase.sql")
            con.execute("PRAGMA user_version = 3")
            con.execute("UPDATE customers SET tier = 'gold' WHERE id % 3 = 0")
            for cid in self.customers:
                if cid % 3 == 0:
                    self.customers[cid] = self.customers[cid][:3] + ("gold",)
            con.commit()
        con.close()


def introspect(con):
    out = {}
    for kind, name in con.execute("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"):
        out[(kind, name)] = None
        if kind == "table":
            out[(kind, name)] = (
                con.execute(f'PRAGMA table_info("{name}")').fetchall(),
                sorted(r[2:] for r in con.execute(f'PRAGMA foreign_key_list("{name}")')),
                sorted((r[1], r[2], tuple(c[2] for c in con.execute(f'PRAGMA index_info("{r[1]}")')))
                       for r in con.execute(f'PRAGMA index_list("{name}")')),
            )
    return out


def reference(tmp_path):
    ref = sqlite3.connect(tmp_path / f"ref{RNG.random()}.db")
    run_script(ref, BASE / "schema.sql")
    return ref


def check_schema(db, tmp_path):
    con = sqlite3.connect(db)
    assert introspect(con) == introspect(reference(tmp_path))
    assert con.execute("PRAGMA user_version").fetchone() == (5,)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    con.close()


def test_new_database_gets_the_whole_schema(tmp_path):
    db = tmp_path / "new.db"
    r = migrate(db)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["applied", "001_initial.sql", "applied", "002_audit.sql", "applied",
                                "003_customer_email_nocase.sql", "applied", "004_price_cents.sql", "applied", "005_note_author.sql"]
    check_schema(db, tmp_path)
    r = migrate(db)
    assert r.returncode == 0 and r.stdout.strip() == "up to date at version 5"


@pytest.mark.parametrize("version", [2, 3])
def test_existing_databases_keep_every_row(tmp_path, version):
    shop = Shop(tmp_path / "shop.db", version)
    r = migrate(shop.path)
    assert r.returncode == 0, r.stderr
    check_schema(shop.path, tmp_path)
    con = sqlite3.connect(shop.path)
    got = {r[0]: r[1:] for r in con.execute("SELECT id, email, name, created, tier FROM customers")}
    assert got == shop.customers
    got = {r[0]: list(r[1:]) for r in con.execute("SELECT id, customer_id, price_cents, status FROM orders")}
    assert set(got) == set(shop.orders), f"{len(shop.orders) - len(got)} orders lost"
    wrong = {k: (got[k], v) for k, v in shop.orders.items() if got[k] != v}
    assert not wrong, f"prices/status differ (got, want): {list(wrong.values())[:5]}"
    got = {r[0]: r[1:] for r in con.execute("SELECT id, order_id, body, author FROM order_notes")}
    assert got == shop.notes, f"{len(shop.notes) - len(got)} of {len(shop.notes)} notes lost"
    assert con.execute("SELECT * FROM audit ORDER BY id").fetchall() == shop.audit


def test_constraints_and_trigger_work_after_migrating(tmp_path):
    shop = Shop(tmp_path / "shop.db", RNG.choice([2, 3]))
    assert migrate(shop.path).returncode == 0
    con = sqlite3.connect(shop.path)
    con.execute("PRAGMA foreign_keys = ON")
    cid = RNG.choice(sorted(shop.customers))
    oid = con.execute("INSERT INTO orders (customer_id, price_cents) VALUES (?, 500)", (cid,)).lastrowid
    con.execute("INSERT INTO order_notes (order_id, body) VALUES (?, 'new note')", (oid,))
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("INSERT INTO orders (customer_id, price_cents) VALUES (?, 5)", (max(shop.customers) + 1,))
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("INSERT INTO orders (customer_id, price_cents) VALUES (?, -1)", (cid,))
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("INSERT INTO customers (email, created) VALUES (?, '2024-01-01')", (shop.customers[cid][0].swapcase(),))
    n_audit = con.execute("SELECT COUNT(*) FROM audit").fetchone()[0]
    con.execute("UPDATE orders SET status = 'shipped' WHERE id = ?", (oid,))
    assert con.execute("SELECT order_id, old_status, new_status FROM audit ORDER BY id DESC LIMIT 1").fetchone() == (oid, "new", "shipped")
    assert con.execute("SELECT COUNT(*) FROM audit").fetchone()[0] == n_audit + 1
    # deleting a customer still removes their orders and the orders' notes
    victim = RNG.choice(sorted({c for c, _, _ in shop.orders.values()}))
    mine = [o for o, (c, _, _) in shop.orders.items() if c == victim]
    con.execute("DELETE FROM customers WHERE id = ?", (victim,))
    assert con.execute(f"SELECT COUNT(*) FROM orders WHERE customer_id = ?", (victim,)).fetchone() == (0,)
    assert con.execute(f"SELECT COUNT(*) FROM order_notes WHERE order_id IN ({','.join(map(str, mine))})").fetchone() == (0,)
    con.commit()


def test_a_failing_migration_changes_nothing(tmp_path):
    shop = Shop(tmp_path / "dup.db", 2)
    con = sqlite3.connect(shop.path)
    a, b = RNG.sample(sorted(shop.customers), 2)
    mail = shop.customers[a][0]
    other_case = mail.lower() if mail != mail.lower() else mail.upper()
    con.execute("UPDATE customers SET email = ? WHERE id = ?", (other_case, b))  # same address, other case
    con.commit()
    con.close()
    before = digest(shop.path)
    r = migrate(shop.path)
    assert r.returncode == 1
    assert "003_customer_email_nocase.sql" in r.stderr
    assert digest(shop.path) == before, "a failed migration left changes behind"


def test_later_failure_keeps_earlier_migrations_recorded(tmp_path):
    shop = Shop(tmp_path / "neg.db", 2)
    con = sqlite3.connect(shop.path)
    bad = RNG.choice(sorted(shop.orders))
    con.execute("UPDATE orders SET price = -3.5 WHERE id = ?", (bad,))
    con.commit()
    con.close()
    r = migrate(shop.path)
    assert r.returncode == 1 and "004_price_cents.sql" in r.stderr
    assert "applied 003_customer_email_nocase.sql" in r.stdout
    con = sqlite3.connect(shop.path)
    assert con.execute("PRAGMA user_version").fetchone() == (3,)
    cols = [c[1] for c in con.execute("PRAGMA table_info(orders)")]
    assert cols == ["id", "customer_id", "price", "status"], "orders must be as before migration 004"
    assert con.execute("SELECT COUNT(*) FROM orders").fetchone() == (len(shop.orders),)
    assert con.execute("SELECT COUNT(*) FROM order_notes").fetchone() == (len(shop.notes),)
    assert [c[1] for c in con.execute("PRAGMA table_info(customers)")][-1] == "tier"
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    # fixing the data and running again finishes the job
    con.execute("UPDATE orders SET price = 3.5 WHERE id = ?", (bad,))
    con.commit()
    con.close()
    shop.orders[bad][1] = 350
    r = migrate(shop.path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["applied", "004_price_cents.sql", "applied", "005_note_author.sql"]
    check_schema(shop.path, tmp_path)
    got = {r[0]: list(r[1:]) for r in sqlite3.connect(shop.path).execute("SELECT id, customer_id, price_cents, status FROM orders")}
    assert got == shop.orders
