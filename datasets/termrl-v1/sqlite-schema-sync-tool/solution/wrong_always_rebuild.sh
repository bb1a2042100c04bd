#!/bin/bash
# Mistake: every run drops and re-creates all indexes, triggers and views, also when the schema already
# matches: the content is the same, but the file is rewritten on every run.
set -e
cat > /app/schemasync/apply.py <<'PYEOF'
#!/usr/bin/env python3
"""Bring a SQLite database to the schema of TARGET.sql, keeping its data.

    python3 apply.py DB TARGET.sql
"""
import re
import sqlite3
import sys


def norm(sql):
    return re.sub(r"\s+", " ", sql.replace('"', "")).strip().rstrip(";").strip()


def body(sql):
    return norm(sql[sql.index("("):])


def objects(con):
    out = {}
    for typ, name, tbl, sql in con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL "
                                           "AND name NOT LIKE 'sqlite_%'"):
        out[(typ, name)] = (tbl, sql)
    return out


def key(objs):
    return {k: (body(v[1]) if k[0] == "table" else norm(v[1])) for k, v in objs.items()}


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    db, target_path = sys.argv[1], sys.argv[2]
    ref = sqlite3.connect(":memory:")
    try:
        ref.executescript(open(target_path).read())
    except (OSError, sqlite3.Error) as e:
        print(f"error: {target_path}: {e}", file=sys.stderr)
        return 1
    want = objects(ref)
    con = sqlite3.connect(db, isolation_level=None)
    have = objects(con)
    con.execute("PRAGMA foreign_keys = OFF")
    con.execute("BEGIN IMMEDIATE")
    try:
        for (typ, name), _ in list(have.items()):
            if typ in ("view", "trigger"):
                con.execute(f'DROP {typ.upper()} "{name}"')
        for (typ, name), _ in list(have.items()):
            if typ == "index":
                con.execute(f'DROP INDEX "{name}"')
        have_tables = {n: s for (t, n), (_, s) in have.items() if t == "table"}
        for (typ, name), (_, sql) in want.items():
            if typ != "table":
                continue
            if name not in have_tables:
                con.execute(sql)
            elif body(have_tables[name]) != body(sql):
                tmp = f"_sync_new_{name}"
                con.execute(f'CREATE TABLE "{tmp}" ' + sql[sql.index("("):])
                old_cols = [r[1] for r in con.execute(f'PRAGMA table_info("{name}")')]
                new_cols = [r[1] for r in con.execute(f'PRAGMA table_info("{tmp}")')]
                common = ", ".join(f'"{c}"' for c in new_cols if c in old_cols)
                con.execute(f'INSERT INTO "{tmp}" ({common}) SELECT {common} FROM "{name}"')
                con.execute(f'DROP TABLE "{name}"')
                con.execute(f'ALTER TABLE "{tmp}" RENAME TO "{name}"')
        for name in have_tables:
            if ("table", name) not in want:
                con.execute(f'DROP TABLE "{name}"')
        for typ in ("index", "trigger", "view"):
            for (t, name), (_, sql) in want.items():
                if t == typ:
                    con.execute(sql)
        bad = con.execute("PRAGMA foreign_key_check").fetchall()
        if bad:
            raise sqlite3.IntegrityError(f"{len(bad)} foreign-key violations, e.g. {bad[0]}")
        if con.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise sqlite3.DatabaseError("integrity check failed")
        con.execute("COMMIT")
    except Exception as e:
        con.execute("ROLLBACK")
        print(f"error: cannot apply {target_path}, database unchanged: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
PYEOF
