"""/app/ledger/constraints.sql installed on ledgers generated here; writers then commit balanced and unbalanced
transactions (entry by entry, multi-row statements, moved and deleted entries, autocommit statements) and the
tests check which commits succeed, that failed ones can be rolled back and that the data stays right."""
import os
import random
import sqlite3
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
CONSTRAINTS = Path(os.environ.get("LEDGER_SQL", "/app/ledger/constraints.sql"))
SCHEMA = (HERE / "schema.sql").read_text()
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)


def amounts(n):
    a = [RNG.choice([-1, 1]) * RNG.randint(1, 90000) for _ in range(n - 1)]
    last = -sum(a)
    if last == 0:
        a[0] += 7
        last -= 7
    return a + [last]


def make(path, txns=120):
    con = sqlite3.connect(path)
    con.executescript(SCHEMA)
    for i in range(1, 9):
        con.execute("INSERT INTO accounts VALUES (?,?,?)", (i, f"a{i}", ["asset", "liability", "income", "expense", "equity"][i % 5]))
    for t in RNG.sample(range(1, 5000), txns):
        for a in amounts(RNG.randint(2, 5)):
            con.execute("INSERT INTO entries (txn_id, account_id, amount_cents, memo) VALUES (?,?,?,?)", (t, RNG.randint(1, 8), a, RNG.choice([None, "x"])))
    con.commit()
    before = (con.execute("SELECT * FROM accounts ORDER BY id").fetchall(), con.execute("SELECT * FROM entries ORDER BY id").fetchall(),
              con.execute("SELECT name, sql FROM sqlite_master WHERE name IN ('accounts', 'entries')").fetchall())
    con.close()
    p = subprocess.run(["sqlite3", str(path)], stdin=CONSTRAINTS.open("rb"), capture_output=True, timeout=60)
    assert p.returncode == 0, f"constraints.sql failed: {p.stderr.decode(errors='replace')[-600:]}"
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    return con, before


def entries(con):
    return con.execute("SELECT id, txn_id, account_id, amount_cents, memo FROM entries ORDER BY id").fetchall()


def balanced(con):
    return con.execute("SELECT count(*) FROM (SELECT txn_id FROM entries GROUP BY txn_id HAVING sum(amount_cents) <> 0)").fetchone()[0] == 0


def test_install_keeps_data_and_tables(tmp_path):
    con, (acc, ent, defs) = make(tmp_path / "l.db")
    assert con.execute("SELECT * FROM accounts ORDER BY id").fetchall() == acc
    assert entries(con) == ent
    assert con.execute("SELECT name, sql FROM sqlite_master WHERE name IN ('accounts', 'entries')").fetchall() == defs


def test_balanced_transactions_commit(tmp_path):
    con, _ = make(tmp_path / "l.db")
    for k in range(25):
        t = 10000 + k
        con.execute("BEGIN")
        for a in amounts(RNG.randint(2, 5)):            # unbalanced between the inserts
            con.execute("INSERT INTO entries (txn_id, account_id, amount_cents) VALUES (?,?,?)", (t, RNG.randint(1, 8), a))
        if k % 3 == 0:                                  # move an existing transaction under a new id, entry by entry
            old = RNG.choice([r[0] for r in con.execute("SELECT DISTINCT txn_id FROM entries WHERE txn_id < 10000")])
            for (eid,) in con.execute("SELECT id FROM entries WHERE txn_id = ?", (old,)).fetchall():
                con.execute("UPDATE entries SET txn_id = ? WHERE id = ?", (20000 + k, eid))
        if k % 4 == 1:                                  # rebalance by editing two entries
            a, b = con.execute("SELECT id FROM entries WHERE txn_id = ? LIMIT 2", (t,)).fetchall()
            con.execute("UPDATE entries SET amount_cents = amount_cents + 13 WHERE id = ?", a)
            con.execute("UPDATE entries SET amount_cents = amount_cents - 13 WHERE id = ?", b)
        if k % 5 == 2:                                  # delete a whole transaction row by row
            old = RNG.choice([r[0] for r in con.execute("SELECT DISTINCT txn_id FROM entries")])
            for (eid,) in con.execute("SELECT id FROM entries WHERE txn_id = ?", (old,)).fetchall():
                con.execute("DELETE FROM entries WHERE id = ?", (eid,))
        assert balanced(con)
        con.execute("COMMIT")                           # must not raise
    assert balanced(con)


def test_unbalanced_commit_fails_and_rolls_back(tmp_path):
    con, _ = make(tmp_path / "l.db")
    for k in range(12):
        before = entries(con)
        con.execute("BEGIN")
        kind = k % 4
        if kind == 0:
            con.execute("INSERT INTO entries (txn_id, account_id, amount_cents) VALUES (?, 1, ?)", (30000 + k, RNG.randint(1, 999)))
        elif kind == 1:
            eid = RNG.choice([r[0] for r in con.execute("SELECT id FROM entries")])
            con.execute("UPDATE entries SET amount_cents = amount_cents + 1 WHERE id = ?", (eid,))
        elif kind == 2:
            eid = RNG.choice([r[0] for r in con.execute("SELECT id FROM entries")])
            con.execute("UPDATE entries SET txn_id = 40000 WHERE id = ?", (eid,))
        else:
            eid = RNG.choice([r[0] for r in con.execute("SELECT id FROM entries")])
            con.execute("DELETE FROM entries WHERE id = ?", (eid,))
        with pytest.raises(sqlite3.IntegrityError):
            con.execute("COMMIT")
        assert con.in_transaction, "after a failed COMMIT the transaction stays open for the writer to roll back"
        con.execute("ROLLBACK")
        assert entries(con) == before
    # the books still accept balanced work afterwards
    con.execute("INSERT INTO entries (txn_id, account_id, amount_cents) VALUES (50000, 1, 5), (50000, 2, -5)")
    assert balanced(con)


def test_autocommit_statements(tmp_path):
    con, _ = make(tmp_path / "l.db")
    con.execute("INSERT INTO entries (txn_id, account_id, amount_cents) VALUES (60000, 1, 70), (60000, 2, -30), (60000, 3, -40)")
    t = RNG.choice([r[0] for r in con.execute("SELECT DISTINCT txn_id FROM entries WHERE txn_id < 10000")])
    con.execute("UPDATE entries SET txn_id = 60001 WHERE txn_id = ?", (t,))
    con.execute("UPDATE entries SET amount_cents = -amount_cents WHERE txn_id % 2 = 0")
    con.execute("DELETE FROM entries WHERE txn_id = 60000")
    assert balanced(con)
    before = entries(con)
    for sql, args in (("INSERT INTO entries (txn_id, account_id, amount_cents) VALUES (?, 1, 5)", (61000,)),
                      ("UPDATE entries SET amount_cents = amount_cents * 2 WHERE id = (SELECT min(id) FROM entries WHERE txn_id = ?)", (60001,)),
                      ("DELETE FROM entries WHERE id = (SELECT max(id) FROM entries WHERE txn_id = ?)", (60001,)),
                      ("UPDATE entries SET txn_id = 61001 WHERE id = (SELECT min(id) FROM entries WHERE txn_id = ?)", (60001,))):
        with pytest.raises(sqlite3.IntegrityError):
            con.execute(sql, args)
        assert not con.in_transaction
        assert entries(con) == before, sql


def test_zero_amount_fails_at_the_statement(tmp_path):
    con, _ = make(tmp_path / "l.db")
    before = entries(con)
    con.execute("BEGIN")
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("INSERT INTO entries (txn_id, account_id, amount_cents) VALUES (70000, 1, 0)")
    eid = before[0][0]
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("UPDATE entries SET amount_cents = 0 WHERE id = ?", (eid,))
    con.execute("INSERT INTO entries (txn_id, account_id, amount_cents) VALUES (70000, 1, 9), (70000, 2, -9)")
    con.execute("COMMIT")
    assert len(entries(con)) == len(before) + 2


def test_unknown_account_still_rejected(tmp_path):
    con, _ = make(tmp_path / "l.db")
    before = entries(con)
    con.execute("BEGIN")
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("INSERT INTO entries (txn_id, account_id, amount_cents) VALUES (80000, 999, 5)")
        con.execute("INSERT INTO entries (txn_id, account_id, amount_cents) VALUES (80000, 1, -5)")
        con.execute("COMMIT")
    if con.in_transaction:
        con.execute("ROLLBACK")
    assert entries(con) == before
