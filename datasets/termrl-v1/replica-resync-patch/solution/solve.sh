#!/bin/bash
# Reference: park changing UNIQUE values and release RESTRICTed references first, delete children before
# parents, insert users with deferred managers, then final values; only differing rows are touched.
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
    out = Patch()
    pu, ru = P["users"][1], R["users"][1]
    pt, rt = P["teams"][1], R["teams"][1]
    pm, rm = P["memberships"][1], R["memberships"][1]
    u_ins, u_del, u_upd = diff(pu, ru)
    t_ins, t_del, t_upd = diff(pt, rt)
    m_ins, m_del, m_upd = diff(pm, rm)
    for db in (P, R):
        TAKEN.update(u["email"] for u in db["users"][1].values())
        TAKEN.update(t["slug"] for t in db["teams"][1].values())
    cur_u = {k: dict(v) for k, v in ru.items()}
    cur_t = {k: dict(v) for k, v in rt.items()}

    # 1. memberships that go away (before their users/teams, so no cascade is needed)
    for k in m_del:
        out.delete("memberships", k)
    # 2. teams that go away; teams that change let go of their lead (RESTRICT) and park their slug (UNIQUE)
    for k in t_del:
        out.delete("teams", k)
        del cur_t[k]
    for k in t_upd:
        ch = {}
        if rt[k]["slug"] != pt[k]["slug"]:
            ch["slug"] = placeholder("teams", k)
        if rt[k]["lead_id"] is not None and rt[k]["lead_id"] != pt[k]["lead_id"]:
            ch["lead_id"] = None
        out.update("teams", k, ch)
        cur_t[k].update(ch)
    # 3. users that go away: nothing equal refers to them; changing users drop references to them first
    gone = {k[0] for k in u_del}
    for k in u_upd:
        ch = {}
        if ru[k]["email"] != pu[k]["email"]:
            ch["email"] = placeholder("users", k)
        if ru[k]["manager_id"] in gone:
            ch["manager_id"] = None
        out.update("users", k, ch)
        cur_u[k].update(ch)
    for k in u_del:
        # users being deleted may point at each other: SET NULL only hits rows that are deleted as well
        out.delete("users", k)
        del cur_u[k]
    # 4. new users, with their manager when it already exists, otherwise later
    later = []
    for k in u_ins:
        row = dict(pu[k])
        m = row["manager_id"]
        if m is not None and (m,) not in cur_u:
            row["manager_id"] = None
            later.append(k)
        out.insert("users", row)
        cur_u[k] = row
    # 5. changed users take their final values; then the deferred managers
    for k in u_upd:
        ch = {c: v for c, v in pu[k].items() if cur_u[k][c] != v}
        out.update("users", k, ch)
        cur_u[k].update(ch)
    for k in later:
        out.update("users", k, {"manager_id": pu[k]["manager_id"]})
    # 6. teams: new ones, then final values of changed ones
    for k in t_ins:
        out.insert("teams", dict(pt[k]))
    for k in t_upd:
        out.update("teams", k, {c: v for c, v in pt[k].items() if cur_t[k][c] != v})
    # 7. memberships
    for k in m_ins:
        out.insert("memberships", dict(pm[k]))
    for k in m_upd:
        out.update("memberships", k, {c: v for c, v in pm[k].items() if rm[k][c] != v})
    sys.stdout.write("".join(line + "\n" for line in out.lines))


if __name__ == "__main__":
    main()
PYEOF
