#!/usr/bin/env python3
"""Bring a shop database up to the newest schema.

    python3 migrate.py DB

Migrations are the files migrations/NNN_name.sql, applied in order, starting after the version recorded
in the database (PRAGMA user_version; 0 for a new database). A migration whose first line is
`-- foreign_keys: off` rebuilds tables and must run with foreign-key enforcement switched off.
"""
import re
import sqlite3
import sys
from pathlib import Path

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def migrations():
    out = []
    for p in sorted(MIGRATIONS.glob("*.sql")):
        m = re.match(r"(\d{3})_[a-z0-9_]+\.sql$", p.name)
        if m:
            out.append((int(m.group(1)), p))
    return out


def main():
    db = sys.argv[1]
    con = sqlite3.connect(db)
    con.execute("PRAGMA foreign_keys = ON")
    current = con.execute("PRAGMA user_version").fetchone()[0]
    todo = [(v, p) for v, p in migrations() if v > current]
    if not todo:
        print(f"up to date at version {current}")
        return 0
    for version, path in todo:
        sql = path.read_text()
        try:
            con.execute("BEGIN")
            if sql.startswith("-- foreign_keys: off"):
                con.execute("PRAGMA foreign_keys = OFF")
            con.executescript(sql)
            con.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as e:
            print(f"migration {path.name} failed: {e}", file=sys.stderr)
            return 1
        print(f"applied {path.name}")
    con.execute(f"PRAGMA user_version = {todo[-1][0]}")
    con.commit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
