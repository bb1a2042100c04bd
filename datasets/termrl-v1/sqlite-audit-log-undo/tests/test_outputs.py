"""/app/audit/setup.sql installed on databases generated here; random application writes (multi-row updates,
upserts, cascaded deletes, id changes, BLOBs, NULLs, integer/text changes in untyped columns, no-op updates,
rolled-back transactions) are checked against audit_log statement by statement, and /app/audit/undo.py
against the table contents recorded at each step."""
import hashlib
import json
import os
import random
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

HERE = Path(__file__).parent
AUDIT = Path(os.environ.get("AUDIT_DIR", "/app/audit"))
SCHEMA = (HERE / "schema.sql").read_text()
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
COLS = {"accounts": ["id", "email", "balance", "avatar", "note"], "orders": ["id", "account_id", "amount", "status", "meta"]}


def enc(x):
    return {"hex": x.hex()} if isinstance(x, bytes) else x


def snapshot(con):
    snap = {}
    for t, cols in COLS.items():
        rows = con.execute(f"SELECT {', '.join(cols)}, {', '.join(f'typeof({c})' for c in cols)} FROM {t}").fetchall()
        snap[t] = {r[0]: r for r in rows}
    return snap


def row_dict(t, r):
    return {c: enc(r[k]) for k, c in enumerate(COLS[t])}


def diff(before, after, moved=None):
    """Expected audit entries for one statement (multiset); moved = (table, old id, new id) of an id change."""
    out = []
    if moved:
        t, old, new = moved
        before = {**before, t: dict(before[t])}
        after = {**after, t: dict(after[t])}
        if old in before[t] and new in after[t] and old not in after[t]:
            n = len(COLS[t])
            b, a = before[t].pop(old), after[t].pop(new)
            ch = {c: [enc(b[i]), enc(a[i])] for i, c in enumerate(COLS[t]) if (b[i], b[i + n]) != (a[i], a[i + n])}
            out.append((t, "U", old, json.dumps(ch, sort_keys=True)))
    for t in COLS:
        b, a = before[t], after[t]
        for k in a.keys() - b.keys():
            out.append((t, "I", k, json.dumps(row_dict(t, a[k]), sort_keys=True)))
        for k in b.keys() - a.keys():
            out.append((t, "D", k, json.dumps(row_dict(t, b[k]), sort_keys=True)))
        for k in a.keys() & b.keys():
            n = len(COLS[t])
            ch = {c: [enc(b[k][i]), enc(a[k][i])] for i, c in enumerate(COLS[t]) if (b[k][i], b[k][i + n]) != (a[k][i], a[k][i + n])}
            if ch:
                out.append((t, "U", k, json.dumps(ch, sort_keys=True)))
    return Counter(out)


def logged(con, after_seq):
    rows = con.execute("SELECT seq, tbl, op, pk, changes FROM audit_log WHERE seq > ? ORDER BY seq", (after_seq,)).fetchall()
    return rows, Counter((t, op, pk, json.dumps(json.loads(ch), sort_keys=True)) for _, t, op, pk, ch in rows)


def last_seq(con):
    return con.execute("SELECT coalesce(max(seq), 0) FROM audit_log").fetchone()[0]


def new_db(path, n_acc=25, n_ord=60):
    con = sqlite3.connect(path)
    con.executescript(SCHEMA)
    for i in range(1, n_acc + 1):
        con.execute("INSERT INTO accounts VALUES (?,?,?,?,?)", (i, f"user{i}@t.test", round(RNG.uniform(0, 900), 2),
                    RNG.choice([None, os.urandom(3)]), RNG.choice([None, 3, "3", "x", 2.5])))
    for i in range(1, n_ord + 1):
        con.execute("INSERT INTO orders VALUES (?,?,?,?,?)", (i, RNG.randint(1, n_acc), RNG.randint(1, 9999), RNG.choice(["new", "paid", None]), RNG.choice([None, 1, "1"])))
    con.commit()
    con.close()
    p = subprocess.run(["sqlite3", str(path)], stdin=(AUDIT / "setup.sql").open("rb"), capture_output=True, timeout=60)
    assert p.returncode == 0, f"setup.sql failed: {p.stderr.decode(errors='replace')[-600:]}"
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    return con


def random_statement(con):
    accs = [r[0] for r in con.execute("SELECT id FROM accounts")] or [1]
    k = RNG.randrange(13)
    a = RNG.choice(accs)
    nid = max(accs) + 1
    if k == 0:
        return "INSERT INTO accounts (id, email, balance, avatar, note) VALUES (?,?,?,?,?)", (nid, f"n{nid}@t.test", round(RNG.uniform(0, 99), 2), RNG.choice([None, os.urandom(2)]), RNG.choice([None, 1, "1"]))
    if k == 1:
        return "INSERT INTO orders (account_id, amount, status) VALUES (?,?,?)", (a, RNG.randint(1, 500), "new")
    if k == 2:
        return "UPDATE accounts SET balance = round(balance + ?, 2) WHERE id % 3 = ?", (RNG.choice([0, 1.25, -3.5]), RNG.randrange(3))
    if k == 3:
        return "UPDATE accounts SET note = ?, avatar = ? WHERE id = ?", (RNG.choice([None, 3, "3", "x"]), RNG.choice([None, os.urandom(2), b"\x00"]), a)
    if k == 4:
        return "UPDATE orders SET status = ?, meta = ? WHERE account_id = ?", (RNG.choice(["paid", None, "new"]), RNG.choice([None, 1, "1"]), a)
    if k == 5:
        return "DELETE FROM accounts WHERE id = ?", (a,)
    if k == 6:
        return "DELETE FROM orders WHERE amount < ?", (RNG.randint(0, 400),)
    if k == 7:
        return ("INSERT INTO accounts (id, email, balance) VALUES (?,?,?) ON CONFLICT(id) DO UPDATE SET balance = excluded.balance",
                (RNG.choice([a, nid]), f"u{nid}@t.test", round(RNG.uniform(0, 50), 2)))
    if k == 8:
        return "UPDATE orders SET amount = amount WHERE account_id = ?", (a,)          # changes nothing
    if k == 9:
        return "UPDATE accounts SET email = upper(email) WHERE id IN (?, ?)", (a, RNG.choice(accs))
    if k == 10:
        return "UPDATE orders SET amount = amount + 1, status = coalesce(status, 'new') WHERE id % 7 = ?", (RNG.randrange(7),)
    free = [r[0] for r in con.execute("SELECT id FROM accounts WHERE id NOT IN (SELECT account_id FROM orders)")] or [a]
    return "UPDATE accounts SET id = ?, balance = round(balance + 1, 2) WHERE id = ?", (nid + 100, RNG.choice(free))   # id change


def test_setup_keeps_data(tmp_path):
    db = tmp_path / "a.db"
    con = new_db(db)
    before = snapshot(con)
    assert last_seq(con) == 0, "installing the triggers must not log anything"
    assert con.execute("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'").fetchone()[0] >= 6
    assert snapshot(con) == before


def test_random_writes_logged_exactly(tmp_path):
    con = new_db(tmp_path / "a.db")
    for step in range(120):
        before, s0 = snapshot(con), last_seq(con)
        sql, args = random_statement(con)
        try:
            con.execute(sql, args)
        except sqlite3.IntegrityError:
            pass                                            # e.g. a duplicate e-mail: nothing changed, nothing logged
        rows, got = logged(con, s0)
        want = diff(before, snapshot(con), ("accounts", args[1], args[0]) if "SET id" in sql else None)
        assert got == want, f"step {step}: {sql} {args!r}\nlogged {rows}\nexpected {sorted(want)} (seed {SEED})"
    seqs = [r[0] for r in con.execute("SELECT seq FROM audit_log ORDER BY seq")]
    assert seqs == sorted(set(seqs))


def test_id_change_and_rollback(tmp_path):
    con = new_db(tmp_path / "a.db")
    con.execute("INSERT INTO accounts (id, email) VALUES (500, 'move@t.test')")
    s0 = last_seq(con)
    con.execute("UPDATE accounts SET id = 501, note = x'0a0b' WHERE id = 500")
    rows = con.execute("SELECT tbl, op, pk, changes FROM audit_log WHERE seq > ?", (s0,)).fetchall()
    assert len(rows) == 1 and rows[0][:3] == ("accounts", "U", 500), rows
    assert json.loads(rows[0][3]) == {"id": [500, 501], "note": [None, {"hex": "0a0b"}]}
    s1 = last_seq(con)
    con.execute("BEGIN")
    con.execute("DELETE FROM accounts WHERE id = 501")
    con.execute("ROLLBACK")
    assert last_seq(con) == s1, "a rolled-back change must leave no audit row"


def test_cascade_is_logged(tmp_path):
    con = new_db(tmp_path / "a.db")
    victim = con.execute("SELECT account_id FROM orders GROUP BY account_id ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
    before, s0 = snapshot(con), last_seq(con)
    con.execute("DELETE FROM accounts WHERE id = ?", (victim,))
    rows, got = logged(con, s0)
    assert got == diff(before, snapshot(con)) and len(rows) >= 2, rows


def run_undo(db, seq):
    return subprocess.run([sys.executable, str(AUDIT / "undo.py"), str(db), str(seq)], capture_output=True, text=True, timeout=120)


def test_undo_to_every_checkpoint(tmp_path):
    db = tmp_path / "u.db"
    con = new_db(db)
    checkpoints = [(0, snapshot(con))]
    for step in range(90):
        sql, args = random_statement(con)
        try:
            con.execute(sql, args)
        except sqlite3.IntegrityError:
            pass
        if step % 15 == 14:
            checkpoints.append((last_seq(con), snapshot(con)))
    con.close()
    for seq, snap in reversed(checkpoints):
        p = run_undo(db, seq)
        assert p.returncode == 0, f"undo.py {seq} failed: {p.stderr[-600:]}"
        con = sqlite3.connect(db)
        assert snapshot(con) == snap, f"after undo.py DB {seq} the tables differ from their state at that point (seed {SEED})"
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        con.close()


def test_undo_is_logged_and_can_be_undone(tmp_path):
    db = tmp_path / "u.db"
    con = new_db(db)
    for _ in range(30):
        sql, args = random_statement(con)
        try:
            con.execute(sql, args)
        except sqlite3.IntegrityError:
            pass
    mid = last_seq(con) // 2
    state = snapshot(con)
    top = last_seq(con)
    con.close()
    assert run_undo(db, mid).returncode == 0
    # undo the undo: back to the state before it
    assert run_undo(db, top).returncode == 0
    con = sqlite3.connect(db)
    assert snapshot(con) == state


def test_undo_rejects_bad_seq(tmp_path):
    db = tmp_path / "u.db"
    con = new_db(db)
    con.execute("DELETE FROM orders WHERE id < 5")
    top = last_seq(con)
    con.close()
    h = hashlib.sha256(db.read_bytes()).hexdigest()
    for bad in (top + 1, -1):
        assert run_undo(db, bad).returncode != 0
        assert hashlib.sha256(db.read_bytes()).hexdigest() == h
