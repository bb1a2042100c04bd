#!/usr/bin/env python3
"""SQLite migration runner: checks first, then one transaction per migration."""
import argparse
import datetime as dt
import hashlib
import re
import sqlite3
import sys
from pathlib import Path

FILE = re.compile(r"(\d{4})_([a-z0-9_]+)\.(up|down)\.sql")


def statements(sql):
    out, buf = [], ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out


def fail(code, message):
    print(message, file=sys.stderr)
    sys.exit(code)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("dir")
    ap.add_argument("--target")
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()

    migrations = {}
    for path in sorted(Path(args.dir).iterdir()):
        m = FILE.fullmatch(path.name)
        if m:
            entry = migrations.setdefault(int(m.group(1)), {"name": f"{m.group(1)}_{m.group(2)}"})
            entry[m.group(3)] = path

    con = sqlite3.connect(args.db, isolation_level=None)
    has_table = con.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_migrations'").fetchone()
    applied = {}
    if has_table:
        applied = {v: c for v, c in con.execute("SELECT version, checksum FROM schema_migrations")}
    current = max(applied, default=0)
    target = max((v for v, e in migrations.items() if "up" in e), default=0)
    if args.target is not None:
        target = int(args.target)

    for version in sorted(applied):
        entry = migrations.get(version, {})
        if "up" not in entry:
            fail(3, f"missing migration: {version:04d}")
        if hashlib.sha256(entry["up"].read_bytes()).hexdigest() != applied[version]:
            fail(3, f"checksum mismatch: {version:04d}")
    for version in sorted(migrations):
        if version not in applied and version < current and "up" in migrations[version]:
            fail(5, f"out of order: {version:04d}")
    plan = []
    if target > current:
        plan = [("up", v) for v in sorted(migrations) if current < v <= target and "up" in migrations[v]]
    elif target < current:
        plan = [("down", v) for v in sorted(applied, reverse=True) if v > target]
        for _, v in plan:
            if "down" not in migrations[v]:
                fail(4, f"irreversible: {v:04d}")

    if args.dry_run:
        for step, v in plan:
            print(f"{step} {migrations[v]['name']}")
        print(f"at {target if plan else current:04d}")
        return
    if not has_table:
        con.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                    "checksum TEXT NOT NULL, applied_at TEXT NOT NULL)")
    for step, v in plan:
        entry = migrations[v]
        con.execute("BEGIN")
        try:
            for statement in statements(entry[step].read_text()):
                con.execute(statement)
            if step == "up":
                con.execute("INSERT INTO schema_migrations VALUES (?, ?, ?, ?)",
                            (v, entry["name"], hashlib.sha256(entry["up"].read_bytes()).hexdigest(),
                             dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")))
            else:
                con.execute("DELETE FROM schema_migrations WHERE version = ?", (v,))
            con.execute("COMMIT")
        except sqlite3.Error as exc:
            con.execute("ROLLBACK")
            fail(2, f"failed: {entry['name']}: {exc}")
        print(f"{step} {entry['name']}", flush=True)
    final = con.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0] or 0
    print(f"at {final:04d}")


if __name__ == "__main__":
    main()
