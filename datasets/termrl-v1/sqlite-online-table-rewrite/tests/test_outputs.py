"""/app/osc/osc.py on databases generated here: start, then copy chunks interleaved with the application's
writes (inserts with and without ids, updates of every column, e-mail changes, cascading deletes, new sessions),
then finish; the result is compared with a model of the writes and with target.sql."""
import calendar
import hashlib
import os
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).parent
TOOL = os.environ.get("OSC", "/app/osc/osc.py")
SCHEMA = (HERE / "schema.sql").read_text()
TARGET = (HERE / "target.sql").read_text()
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)


def digest(p):
    return hashlib.sha256(Path(p).read_bytes()).hexdigest()


def osc(db, *args):
    return subprocess.run([sys.executable, TOOL, str(db), *map(str, args)], capture_output=True, text=True, timeout=120)


def stamp():
    return f"2023-{RNG.randint(1, 12):02d}-{RNG.randint(1, 28):02d} {RNG.randint(0, 23):02d}:{RNG.randint(0, 59):02d}:{RNG.randint(0, 59):02d}"


def epoch(s):
    return calendar.timegm(time.strptime(s, "%Y-%m-%d %H:%M:%S"))


class App:
    def __init__(self, path, n=600):
        self.path = path
        self.users, self.sessions, self.changes = {}, {}, []
        con = sqlite3.connect(path)
        con.executescript(SCHEMA)
        for i in range(1, n + 1):
            u = (f"u{i}@ex.test", f"User {i}", stamp(), RNG.choice([None, '{"a": 1}', "{}"]))
            con.execute("INSERT INTO users VALUES (?,?,?,?,?)", (i, *u))
            self.users[i] = list(u)
        for k in range(1, 2 * n):
            uid = RNG.choice(list(self.users))
            con.execute("INSERT INTO sessions VALUES (?,?,?)", (k, uid, f"t{k}"))
            self.sessions[k] = uid
        con.commit()
        con.close()

    def write(self, steps):
        con = sqlite3.connect(self.path)
        con.execute("PRAGMA foreign_keys = ON")
        con.execute("PRAGMA synchronous = OFF")
        for _ in range(steps):
            k = RNG.randrange(8)
            ids = list(self.users)
            uid = RNG.choice(ids)
            if k == 0:
                u = [f"new{RNG.randint(0, 10 ** 6)}@ex.test", "New", stamp(), RNG.choice([None, "{}"])]
                cur = con.execute("INSERT INTO users (email, full_name, created_at, prefs) VALUES (?,?,?,?)", u)
                self.users[cur.lastrowid] = u
            elif k == 1:
                nid = max(ids) + RNG.randint(5, 50)
                u = ["hi@ex.test", "High", stamp(), '{"b": 2}']
                con.execute("INSERT INTO users VALUES (?,?,?,?,?)", (nid, *u))
                self.users[nid] = u
            elif k == 2:
                new = f"changed{RNG.randint(0, 10 ** 6)}@ex.test"
                con.execute("UPDATE users SET email = ? WHERE id = ?", (new, uid))
                self.changes.append((uid, self.users[uid][0], new))
                self.users[uid][0] = new
            elif k == 3:
                v = (stamp(), RNG.choice([None, '{"c": 3}']))
                con.execute("UPDATE users SET created_at = ?, prefs = ? WHERE id = ?", (*v, uid))
                self.users[uid][2:] = list(v)
            elif k == 4:
                con.execute("UPDATE users SET full_name = full_name || '!' WHERE id % 17 = ?", (RNG.randrange(17),))
                for i, name in con.execute("SELECT id, full_name FROM users").fetchall():
                    self.users[i][1] = name
            elif k == 5:
                con.execute("DELETE FROM users WHERE id = ?", (uid,))
                del self.users[uid]
                self.sessions = {s: u for s, u in self.sessions.items() if u != uid}
            else:
                cur = con.execute("INSERT INTO sessions (user_id, token) VALUES (?, 'x')", (uid,))
                self.sessions[cur.lastrowid] = uid
            con.commit()
        con.close()

    def expected_users(self):
        return sorted((i, e, n, epoch(c), p if p is not None else "{}") for i, (e, n, c, p) in self.users.items())


def shape(con, table):
    return (con.execute(f"PRAGMA table_xinfo('{table}')").fetchall(),
            sorted((r[1], r[2], tuple(c[2] for c in con.execute(f"PRAGMA index_info('{r[1]}')"))) for r in con.execute(f"PRAGMA index_list('{table}')")))


@pytest.fixture(scope="module")
def rewritten(tmp_path_factory):
    db = tmp_path_factory.mktemp("osc") / "app.db"
    app = App(db)
    p = osc(db, "start")
    assert p.returncode == 0, f"start failed: {p.stderr[-600:]}"
    while True:
        app.write(RNG.randint(0, 12))
        p = osc(db, "copy", RNG.choice([50, 120, 300]))
        assert p.returncode == 0, f"copy failed: {p.stderr[-600:]}"
        if p.stdout.split() == ["0"]:
            break
    app.write(20)
    p = osc(db, "finish")
    assert p.returncode == 0, f"finish failed: {p.stderr[-600:]}"
    return db, app


def test_data_after_rewrite(rewritten):
    db, app = rewritten
    con = sqlite3.connect(db)
    assert con.execute("SELECT id, email, full_name, created_at, prefs FROM users ORDER BY id").fetchall() == app.expected_users(), f"seed {SEED}"
    assert dict(con.execute("SELECT id, user_id FROM sessions")) == app.sessions, "sessions lost or changed"
    assert con.execute("SELECT user_id, old_email, new_email FROM email_changes ORDER BY id").fetchall() == app.changes, \
        "every e-mail change must be logged exactly once"


def test_schema_after_rewrite(rewritten):
    db, _ = rewritten
    con = sqlite3.connect(db)
    ref = sqlite3.connect(":memory:")
    ref.executescript(TARGET)
    assert shape(con, "users") == shape(ref, "users"), "users does not match target.sql"
    live = sqlite3.connect(":memory:")
    live.executescript(SCHEMA)
    want = {(t, n) for t, n in live.execute("SELECT type, name FROM sqlite_master")} | {("index", "users_email")}
    got = {(t, n) for t, n in con.execute("SELECT type, name FROM sqlite_master")}
    assert got == want, f"leftover or missing schema objects: {got ^ want}"
    assert con.execute("PRAGMA foreign_key_list('sessions')").fetchall() == live.execute("PRAGMA foreign_key_list('sessions')").fetchall()
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_app_works_after_rewrite(rewritten, tmp_path):
    db, app = rewritten
    db2 = tmp_path / "copy.db"
    db2.write_bytes(db.read_bytes())
    con = sqlite3.connect(db2)
    con.execute("PRAGMA foreign_keys = ON")
    uid = con.execute("SELECT user_id FROM sessions GROUP BY user_id ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
    n = con.execute("SELECT sessions FROM active_users WHERE id = ?", (uid,)).fetchone()[0]
    assert n == sum(1 for u in app.sessions.values() if u == uid)
    before = con.execute("SELECT count(*) FROM email_changes").fetchone()[0]
    con.execute("UPDATE users SET email = 'after@ex.test' WHERE id = ?", (uid,))
    assert con.execute("SELECT count(*) FROM email_changes").fetchone()[0] == before + 1
    con.execute("INSERT INTO users (email, full_name, created_at) VALUES ('z@ex.test', 'Z', 1700000000)")
    assert con.execute("SELECT prefs FROM users WHERE email = 'z@ex.test'").fetchone() == ("{}",)
    con.execute("DELETE FROM users WHERE id = ?", (uid,))
    assert con.execute("SELECT count(*) FROM sessions WHERE user_id = ?", (uid,)).fetchone()[0] == 0, "ON DELETE CASCADE must still work"
    con.commit()


def test_copy_reports_rows(tmp_path):
    db = tmp_path / "app.db"
    App(db, n=450)
    assert osc(db, "start").returncode == 0
    counts = []
    while True:
        p = osc(db, "copy", 100)
        assert p.returncode == 0, p.stderr[-400:]
        counts.append(int(p.stdout.split()[-1]))
        if counts[-1] == 0:
            break
        assert len(counts) < 20
    assert counts == [100, 100, 100, 100, 50, 0]
    assert osc(db, "finish").returncode == 0


def test_refusals(tmp_path):
    db = tmp_path / "app.db"
    App(db, n=50)
    d = digest(db)
    for args in (("copy", 10), ("finish",)):
        assert osc(db, *args).returncode != 0, f"{args} without start must fail"
        assert digest(db) == d
    assert osc(db, "start").returncode == 0
    d = digest(db)
    assert osc(db, "start").returncode != 0, "a second start must fail"
    assert digest(db) == d
