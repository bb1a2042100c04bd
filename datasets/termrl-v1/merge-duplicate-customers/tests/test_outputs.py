"""/app/dedupe.py on CRM databases generated here (duplicates by e-mail with case and space variants, ties
on created_at, clashing address labels, referrals inside and across groups); the result is compared with
what the merge rules give."""
import hashlib
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = os.environ.get("DEDUPE", "/app/dedupe.py")
SCHEMA = (Path(__file__).parent / "schema.sql").read_text()
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
LABELS = ["home", "work", "billing", "Home"]


def digest(p):
    return hashlib.sha256(Path(p).read_bytes()).hexdigest()


def run(db):
    return subprocess.run([sys.executable, TOOL, str(db)], capture_output=True, text=True, timeout=300)


class CRM:
    def __init__(self, path, n=120):
        self.path = path
        r = RNG
        con = sqlite3.connect(path)
        con.executescript(SCHEMA)
        bases = [f"{r.choice(['ann', 'bo', 'cy', 'dee', 'ed'])}.{i}@{r.choice(['ex.test', 'Mail.test'])}" for i in range(n // 3)]
        self.cust = {}
        for cid in r.sample(range(1, n * 5), n):
            b = r.choice(bases)
            email = r.choice([b, b.upper(), f"  {b}", f"{b.title()} ", None, "", "   ", b])
            created = f"2023-0{r.randint(1, 3)}-1{r.randint(0, 2)} 10:00:0{r.randint(0, 2)}"   # many ties
            name = r.choice([None, "", "  ", "Ann Lee", "Bo", "Ünal Çelik"])
            phone = r.choice([None, "", "+49 30 1234", "555-0101"])
            con.execute("INSERT INTO customers VALUES (?,?,?,?,?)", (cid, email, name, phone, created))
            self.cust[cid] = [email, name, phone, created]
        ids = sorted(self.cust)
        self.addr = {}
        for aid in r.sample(range(1, n * 10), n * 2):
            c, label = r.choice(ids), r.choice(LABELS)
            try:
                con.execute("INSERT INTO addresses VALUES (?,?,?,?)", (aid, c, label, f"{r.randint(1, 99)} Main St"))
                self.addr[aid] = [c, label, con.execute("SELECT line FROM addresses WHERE id = ?", (aid,)).fetchone()[0]]
            except sqlite3.IntegrityError:
                pass
        self.orders = {}
        for oid in range(1, n * 3):
            c = r.choice(ids)
            con.execute("INSERT INTO orders VALUES (?,?,?)", (oid, c, r.randint(0, 10 ** 5)))
            self.orders[oid] = c
        self.refs = set()
        for _ in range(n):
            a, b = r.sample(ids, 2)
            con.execute("INSERT OR IGNORE INTO referrals VALUES (?,?)", (a, b))
            self.refs.add((a, b))
        # referrals between members of one group (they become self-referrals)
        for _ in range(10):
            a, b = r.sample(ids, 2)
            ea, eb = (self.cust[a][0] or "").strip().lower(), (self.cust[b][0] or "").strip().lower()
            if ea and ea == eb:
                con.execute("INSERT OR IGNORE INTO referrals VALUES (?,?)", (a, b))
                self.refs.add((a, b))
        con.commit()
        con.close()

    def expected(self):
        groups = {}
        for cid, (email, _, _, created) in self.cust.items():
            key = (email or "").strip().lower()
            if key:
                groups.setdefault(key, []).append((created, cid))
        cust = {cid: [None if not (e or "").strip() else e, n, p, c] for cid, (e, n, p, c) in self.cust.items()}
        to = {}
        addr = {aid: list(v) for aid, v in self.addr.items()}
        removed = merged = 0
        for key, members in sorted(groups.items()):
            ids = [cid for _, cid in sorted(members)]
            keep = ids[0]
            pick = lambda f: next((self.cust[i][f] for i in ids if (self.cust[i][f] or "").strip()), self.cust[keep][f])
            cust[keep] = [key, pick(1), pick(2), self.cust[keep][3]]
            if len(ids) > 1:
                merged += 1
            for dup in ids[1:]:
                to[dup] = keep
                del cust[dup]
                removed += 1
                for aid in sorted(a for a, v in addr.items() if v[0] == dup):
                    if any(v[0] == keep and v[1] == addr[aid][1] for v in addr.values()):
                        del addr[aid]
                    else:
                        addr[aid][0] = keep
        m = lambda c: to.get(c, c)
        orders = {o: m(c) for o, c in self.orders.items()}
        refs = {(m(a), m(b)) for a, b in self.refs if m(a) != m(b)}
        return cust, addr, orders, refs, removed, merged

    def actual(self):
        con = sqlite3.connect(self.path)
        cust = {r[0]: list(r[1:]) for r in con.execute("SELECT * FROM customers")}
        addr = {r[0]: list(r[1:]) for r in con.execute("SELECT * FROM addresses")}
        orders = dict(con.execute("SELECT id, customer_id FROM orders"))
        refs = set(con.execute("SELECT * FROM referrals"))
        con.close()
        return cust, addr, orders, refs


@pytest.fixture()
def crm(tmp_path):
    return CRM(tmp_path / "crm.db")


def test_customers_merged(crm):
    r = run(crm.path)
    assert r.returncode == 0, r.stderr
    cust, _, _, _, removed, merged = crm.expected()
    got = crm.actual()[0]
    assert set(got) == set(cust), f"survivors differ (seed {SEED})"
    wrong = {k: (got[k], v) for k, v in cust.items() if got[k] != v}
    assert not wrong, f"customer rows differ (got, want): {list(wrong.items())[:4]} (seed {SEED})"
    assert r.stdout.strip() == f"merged {removed} duplicates into {merged} customers"


def test_orders_and_addresses_follow_the_survivor(crm):
    assert run(crm.path).returncode == 0
    _, addr, orders, _, _, _ = crm.expected()
    _, got_addr, got_orders, _ = crm.actual()
    assert got_orders == orders
    assert got_addr == addr, f"addresses differ (seed {SEED})"


def test_referrals_repointed(crm):
    assert run(crm.path).returncode == 0
    refs = crm.expected()[3]
    assert crm.actual()[3] == refs


def test_integrity_and_unique_email_index(crm):
    assert run(crm.path).returncode == 0
    con = sqlite3.connect(crm.path)
    con.execute("PRAGMA foreign_keys = ON")
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    email = next(e for e, *_ in crm.expected()[0].values() if e)
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("INSERT INTO customers (email, created_at) VALUES (?, '2024-01-01 00:00:00')", (email,))
    con.execute("INSERT INTO customers (email, created_at) VALUES (NULL, '2024-01-01 00:00:00')")
    con.execute("INSERT INTO customers (email, created_at) VALUES (NULL, '2024-01-01 00:00:00')")


def test_rerun_changes_nothing(crm):
    assert run(crm.path).returncode == 0
    before = digest(crm.path)
    r = run(crm.path)
    assert r.returncode == 0 and r.stdout.strip() == "merged 0 duplicates into 0 customers"
    assert digest(crm.path) == before


def test_broken_database_is_left_alone(crm):
    con = sqlite3.connect(crm.path)
    con.execute("INSERT INTO orders VALUES (999999, 12345678, 100)")   # an order of no customer
    con.commit()
    con.close()
    before = digest(crm.path)
    r = run(crm.path)
    assert r.returncode == 1 and r.stderr.strip()
    assert digest(crm.path) == before
