#!/bin/bash
# Mistake: only inserts and deletes are mirrored into the new table; an update to a row that was already
# copied is lost.
set -e
cat > /app/osc/osc.py <<'PYEOF'
#!/usr/bin/env python3
"""Rewrite the users table into the form of target.sql while the application keeps writing.

    python3 osc.py DB start | copy N | finish
"""
import sqlite3
import sys

NEW = """CREATE TABLE osc_users_new (
  id         INTEGER PRIMARY KEY,
  email      TEXT NOT NULL,
  full_name  TEXT NOT NULL,
  created_at INTEGER NOT NULL,           -- unix time in seconds (from the old UTC text)
  prefs      TEXT NOT NULL DEFAULT '{}'  -- NULL becomes '{}'
)"""
CONV = "{p}.id, {p}.email, {p}.full_name, CAST(strftime('%s', {p}.created_at) AS INTEGER), coalesce({p}.prefs, '{{}}')"
COLS = "id, email, full_name, created_at, prefs"
TRIGGERS = [
    f"CREATE TRIGGER osc_users_ins AFTER INSERT ON users BEGIN "
    f"INSERT OR REPLACE INTO osc_users_new ({COLS}) SELECT {CONV.format(p='NEW')}; END",
    "CREATE TRIGGER osc_users_del AFTER DELETE ON users BEGIN DELETE FROM osc_users_new WHERE id = OLD.id; END",
]


def started(con):
    return con.execute("SELECT count(*) FROM sqlite_master WHERE name = 'osc_state'").fetchone()[0] == 1


def copy(con, n):
    cursor = con.execute("SELECT last_id FROM osc_state").fetchone()[0]
    rows = con.execute("SELECT id FROM users WHERE id > ? ORDER BY id LIMIT ?", (cursor, n)).fetchall()
    if not rows:
        return 0
    hi = rows[-1][0]
    cur = con.execute(f"INSERT OR IGNORE INTO osc_users_new ({COLS}) SELECT {CONV.format(p='u')} FROM users u "
                      "WHERE u.id > ? AND u.id <= ?", (cursor, hi))
    con.execute("UPDATE osc_state SET last_id = ?", (hi,))
    return len(rows)


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("start", "copy", "finish"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    db, cmd = sys.argv[1], sys.argv[2]
    con = sqlite3.connect(db, isolation_level=None)
    if cmd == "finish":
        con.execute("PRAGMA foreign_keys = OFF")        # must be set outside a transaction
    else:
        con.execute("PRAGMA foreign_keys = ON")
    con.execute("BEGIN IMMEDIATE")
    try:
        if cmd == "start":
            if started(con):
                raise RuntimeError("a rewrite is already in progress")
            con.execute(NEW)
            con.execute("CREATE TABLE osc_state (last_id INTEGER NOT NULL)")
            con.execute("INSERT INTO osc_state VALUES (0)")
            for t in TRIGGERS:
                con.execute(t)
        elif not started(con):
            raise RuntimeError("no rewrite in progress: run start first")
        elif cmd == "copy":
            n = int(sys.argv[3])
            print(copy(con, n))
        else:
            while copy(con, 5000):
                pass
            a = con.execute("SELECT count(*) FROM users").fetchone()[0]
            b = con.execute("SELECT count(*) FROM osc_users_new").fetchone()[0]
            if a != b:
                raise RuntimeError(f"shadow table has {b} rows, users has {a}")
            view = con.execute("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = 'active_users'").fetchone()[0]
            trig = con.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'users_email_changed'").fetchone()[0]
            for name in ("osc_users_ins", "osc_users_del"):
                con.execute(f"DROP TRIGGER {name}")
            con.execute("DROP VIEW active_users")
            con.execute("DROP TABLE users")
            con.execute("ALTER TABLE osc_users_new RENAME TO users")
            con.execute("CREATE INDEX users_email ON users(email)")
            con.execute(trig)
            con.execute(view)
            con.execute("DROP TABLE osc_state")
            if con.execute("PRAGMA foreign_key_check").fetchall():
                raise RuntimeError("foreign-key violations after the swap")
        con.execute("COMMIT")
    except Exception as e:
        con.execute("ROLLBACK")
        print(f"error: {cmd} failed, nothing changed: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
PYEOF
