"""/app/db/migrate_v2.py on schema-1 databases generated here (names, emails, totals, statuses and
orphans chosen at test time); the result is compared with a database built from schema_v2.sql."""
import hashlib
import os
import random
import sqlite3
import string
import subprocess
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
MIGRATE = "/app/db/migrate_v2.py"
V1 = Path("/app/db/schema_v1.sql").read_text()
V2 = Path("/app/db/schema_v2.sql").read_text()


def word(cap=True):
    w = "".join(RNG.choice(string.ascii_lowercase) for _ in range(RNG.randint(3, 8)))
    return w.capitalize() if cap else w


def run(db):
    return subprocess.run(["python3", MIGRATE, str(db)], capture_output=True, text=True, timeout=120)


def digest(p):
    return hashlib.sha256(Path(p).read_bytes()).hexdigest()


def ddmmyyyy():
    return RNG.randint(1, 28), RNG.randint(1, 12), RNG.randint(2015, 2026)


TRICKY_TOTALS = [("0.29", 29), ("1.15", 115), ("4.35", 435), ("EUR 19.99", 1999), ("EUR12", 1200), (" 7 ", 700),
                 ("12,5", 1250), ("0,07", 7), ("8.1", 810), ("100", 10000), ("2.675", None)]


class Shop:
    """A schema-1 database plus what schema 2 must contain."""

    def __init__(self, path: Path, n_customers=30, n_orders=90):
        self.path = path
        con = sqlite3.connect(path)
        con.executescript(V1)
        self.customers, self.orders, self.orphans = {}, {}, {}
        emails_taken = set()
        shared = f"{word(False)}@{word(False)}.test"
        for cid in sorted(RNG.sample(range(1, 5000), n_customers)):
            kind = RNG.random()
            words = [word() for _ in range(RNG.choice([1, 2, 2, 2, 3, 4]))]
            name = ("  ".join(words) if RNG.random() < 0.2 else " ".join(words)) if kind > 0.05 else RNG.choice([None, "", "  "])
            w = (name or "").split()
            first, last = (w[0], " ".join(w[1:])) if len(w) > 1 else ("", " ".join(w))
            r = RNG.random()
            if r < 0.25:
                raw = RNG.choice(["", "   ", None])
            elif r < 0.45:
                raw = RNG.choice([shared.upper(), f" {shared} ", shared.capitalize()])
            else:
                raw = f"{word(False)}.{cid}@{word(False)}.test"
                raw = RNG.choice([raw, raw.upper(), f"  {raw}"])
            mail = (raw or "").strip().lower() or None
            if mail in emails_taken:
                mail = None
            elif mail:
                emails_taken.add(mail)
            d, m, y = ddmmyyyy()
            phone = RNG.choice([None, f"+{RNG.randint(1, 99)} {RNG.randint(10**5, 10**7)}"])
            con.execute("INSERT INTO customers VALUES (?,?,?,?,?)", (cid, name, raw, phone, f"{d:02d}/{m:02d}/{y}"))
            self.customers[cid] = (first, last, mail, phone, f"{y}-{m:02d}-{d:02d}")
        ids = list(self.customers)
        for oid in sorted(RNG.sample(range(1, 100000), n_orders)):
            text, cents = self.total()
            st = RNG.choice(["new", "NEW", " Paid", "shipped", "SHIPPED ", "canceled", "Cancelled", "cancelled"])
            want_st = st.strip().lower().replace("canceled", "cancelled")
            d, m, y = ddmmyyyy()
            hh, mm = RNG.randint(0, 23), RNG.randint(0, 59)
            cust = RNG.choice(ids) if RNG.random() < 0.9 else RNG.choice([None, 999999, max(ids) + 1])
            con.execute("INSERT INTO orders VALUES (?,?,?,?,?)", (oid, cust, text, st, f"{d:02d}/{m:02d}/{y} {hh:02d}:{mm:02d}"))
            row = (cust, cents, want_st, f"{y}-{m:02d}-{d:02d}T{hh:02d}:{mm:02d}")
            (self.orders if cust in self.customers else self.orphans)[oid] = row
        some = RNG.sample(sorted(self.orders), 3)
        for oid in some:
            con.execute("UPDATE orders SET status = 'paid' WHERE id = ?", (oid,))
            c, cents, _, placed = self.orders[oid]
            self.orders[oid] = (c, cents, "paid", placed)
        self.audit = con.execute("SELECT * FROM audit ORDER BY id").fetchall()
        assert len(self.audit) == 3
        con.commit()
        con.close()

    @staticmethod
    def total():
        if RNG.random() < 0.3:
            text, cents = RNG.choice(TRICKY_TOTALS[:-1])
            return text, cents
        cents = RNG.randint(0, 10**6)
        form = RNG.randrange(5)
        if form == 0:
            return f"{cents // 100}.{cents % 100:02d}", cents
        if form == 1:
            return f"EUR {cents // 100},{cents % 100:02d}", cents
        if form == 2:
            return f" {cents // 100} ", cents - cents % 100
        if form == 3:
            return f"EUR{cents // 100}.{(cents % 100) // 10}", cents - cents % 10
        return f"{cents // 100}.{cents % 100:02d}".rstrip("0").rstrip("."), cents


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


@pytest.fixture()
def shop(tmp_path):
    return Shop(tmp_path / "shop.db")


def test_schema_is_exactly_version_2(shop, tmp_path):
    r = run(shop.path)
    assert r.returncode == 0, r.stderr
    ref = sqlite3.connect(tmp_path / "ref.db")
    ref.executescript(V2)
    con = sqlite3.connect(shop.path)
    assert introspect(con) == introspect(ref)
    assert con.execute("PRAGMA user_version").fetchone() == (2,)
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert r.stdout.strip() == (f"migrated: {len(shop.customers)} customers, {len(shop.orders)} orders, "
                                f"{len(shop.orphans)} orphan orders")


def test_customers_converted(shop):
    assert run(shop.path).returncode == 0
    con = sqlite3.connect(shop.path)
    got = {r[0]: r[1:] for r in con.execute("SELECT id, first_name, last_name, email, phone, created_at FROM customers")}
    assert got == shop.customers


def test_orders_orphans_and_audit_converted(shop):
    assert run(shop.path).returncode == 0
    con = sqlite3.connect(shop.path)
    got = {r[0]: r[1:] for r in con.execute("SELECT id, customer_id, total_cents, status, placed_at FROM orders")}
    wrong = {k: (got.get(k), v) for k, v in shop.orders.items() if got.get(k) != v}
    assert not wrong, list(wrong.items())[:5]
    assert set(got) == set(shop.orders)
    orphans = {r[0]: r[1:] for r in con.execute("SELECT id, customer_id, total_cents, status, placed_at FROM orphan_orders")}
    assert orphans == shop.orphans
    assert con.execute("SELECT * FROM audit ORDER BY id").fetchall() == shop.audit
    assert all(isinstance(c, int) for (c,) in con.execute("SELECT total_cents FROM orders"))


def test_tricky_totals_are_exact(tmp_path):
    db = tmp_path / "t.db"
    con = sqlite3.connect(db)
    con.executescript(V1)
    con.execute("INSERT INTO customers VALUES (1, 'Ann Lee', NULL, NULL, '01/02/2020')")
    for i, (text, cents) in enumerate(TRICKY_TOTALS[:-1], start=1):
        con.execute("INSERT INTO orders VALUES (?, 1, ?, 'paid', '02/03/2024 10:00')", (i, text))
    con.commit()
    con.close()
    assert run(db).returncode == 0
    got = dict(sqlite3.connect(db).execute("SELECT id, total_cents FROM orders"))
    assert got == {i: cents for i, (_, cents) in enumerate(TRICKY_TOTALS[:-1], start=1)}


def test_constraints_trigger_and_view_work(shop):
    assert run(shop.path).returncode == 0
    con = sqlite3.connect(shop.path)
    con.execute("PRAGMA foreign_keys = ON")
    cid = RNG.choice(sorted(shop.customers))
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("INSERT INTO orders (customer_id, total_cents, status, placed_at) VALUES (?, 5, 'lost', 'x')", (cid,))
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("INSERT INTO orders (customer_id, total_cents, status, placed_at) VALUES (123456789, 5, 'new', 'x')")
    mail = next(m for (_, _, m, _, _) in shop.customers.values() if m)
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("INSERT INTO customers (first_name, last_name, email, created_at) VALUES ('a', 'b', ?, '2020-01-01')",
                    (mail.upper(),))
    spend = dict(con.execute("SELECT customer_id, spent_cents FROM customer_spend").fetchall())
    want = {c: sum(t for (oc, t, s, _) in shop.orders.values() if oc == c and s != "cancelled") for c in shop.customers}
    assert spend == want
    oid = next(iter(shop.orders))
    con.execute("UPDATE orders SET status = 'shipped' WHERE id = ?", (oid,))
    assert con.execute("SELECT order_id, new_status FROM audit ORDER BY id DESC LIMIT 1").fetchone() == (oid, "shipped")
    owner = shop.orders[oid][0]
    con.execute("DELETE FROM customers WHERE id = ?", (owner,))
    assert con.execute("SELECT COUNT(*) FROM orders WHERE customer_id = ?", (owner,)).fetchone() == (0,)


@pytest.mark.parametrize("bad", ["total", "status"])
def test_a_bad_value_aborts_and_changes_nothing(tmp_path, bad):
    shop = Shop(tmp_path / "bad.db")
    con = sqlite3.connect(shop.path)
    victims = sorted(RNG.sample(sorted(shop.orders), 2))
    for oid in victims:
        if bad == "total":
            con.execute("UPDATE orders SET total = ? WHERE id = ?", (RNG.choice(["12.345", "EUR  5", "1.2.3", "-4", "USD 3"]), oid))
        else:
            con.execute("UPDATE orders SET status = ? WHERE id = ?", (RNG.choice(["refunded", "pending", ""]), oid))
    con.commit()
    con.close()
    before = digest(shop.path)
    r = run(shop.path)
    assert r.returncode == 1
    assert r.stderr.strip().splitlines()[-1] == f"bad {bad} for order {victims[0]}"
    assert digest(shop.path) == before, "the database file changed"


def test_rerun_and_unknown_versions(shop):
    assert run(shop.path).returncode == 0
    before = digest(shop.path)
    r = run(shop.path)
    assert r.returncode == 0 and r.stdout.strip() == "already at version 2"
    assert digest(shop.path) == before
    con = sqlite3.connect(shop.path)
    con.execute("PRAGMA user_version = 7")
    con.close()
    before = digest(shop.path)
    r = run(shop.path)
    assert r.returncode == 1 and "unknown schema version 7" in r.stderr and digest(shop.path) == before
