#!/bin/bash
# Mistake: the usual upsert: INSERT OR REPLACE for new and changed rows; REPLACE deletes the old row, which
# fires ON DELETE actions on rows that were equal (and trips RESTRICT).
set -e
cat > /app/resync.py <<'PYEOF'
#!/usr/bin/env python3
"""Print an SQL patch that turns REPLICA into a copy of PRIMARY, row by row.

    python3 resync.py PRIMARY REPLICA > patch.sql

The patch runs with foreign keys enforced (immediate checks), never trips a UNIQUE constraint, and touches
only rows that differ: rows equal in both databases are neither changed nor hit by a cascade.
"""
import sqlite3
import sys

TABLES = {"users": ("id",), "teams": ("id",), "memberships": ("user_id", "team_id")}


def lit(v):
    if v is None:
        return "NULL"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, bytes):
        return "X'" + v.hex() + "'"
    return "'" + v.replace("'", "''") + "'"


def load(path):
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    out = {}
    for t, pk in TABLES.items():
        cols = [r[1] for r in con.execute(f"PRAGMA table_info({t})")]
        rows = {}
        for r in con.execute(f"SELECT {', '.join(cols)} FROM {t}"):
            d = dict(zip(cols, r))
            rows[tuple(d[k] for k in pk)] = d
        out[t] = (cols, rows)
    con.close()
    return out


class Patch:
    def __init__(self):
        self.lines = []

    def insert(self, t, row):
        cols = list(row)
        self.lines.append(f"INSERT INTO {t} ({', '.join(cols)}) VALUES ({', '.join(lit(row[c]) for c in cols)});")

    def update(self, t, key, changes):
        if not changes:
            return
        where = " AND ".join(f"{k} = {lit(v)}" for k, v in zip(TABLES[t], key))
        sets = ", ".join(f"{c} = {lit(v)}" for c, v in changes.items())
        self.lines.append(f"UPDATE {t} SET {sets} WHERE {where};")

    def delete(self, t, key):
        where = " AND ".join(f"{k} = {lit(v)}" for k, v in zip(TABLES[t], key))
        self.lines.append(f"DELETE FROM {t} WHERE {where};")


def diff(p, r):
    ins = [k for k in p if k not in r]
    dele = [k for k in r if k not in p]
    upd = [k for k in p if k in r and p[k] != r[k]]
    return sorted(ins), sorted(dele), sorted(upd)


TAKEN = set()


def placeholder(t, key):
    """A value for a UNIQUE column that no row has or will have."""
    base = f"~resync~{t}~{'~'.join(map(str, key))}"
    v, n = base, 0
    while v in TAKEN:
        n += 1
        v = f"{base}~{n}"
    TAKEN.add(v)
    return v


def main():
    P, R = load(sys.argv[1]), load(sys.argv[2])
    lines = []
    # rows that are gone: children first
    for t in ("memberships", "teams", "users"):
        ins, dele, upd = diff(P[t][1], R[t][1])
        out = Patch()
        for k in dele:
            out.delete(t, k)
        lines += out.lines
    # new and changed rows: parents first, written whole with INSERT OR REPLACE (the usual upsert)
    for t in ("users", "teams", "memberships"):
        ins, dele, upd = diff(P[t][1], R[t][1])
        for k in sorted(ins + upd):
            row = P[t][1][k]
            cols = list(row)
            lines.append(f"INSERT OR REPLACE INTO {t} ({', '.join(cols)}) VALUES ({', '.join(lit(row[c]) for c in cols)});")
    sys.stdout.write("".join(line + "\n" for line in lines))


if __name__ == "__main__":
    main()
PYEOF
