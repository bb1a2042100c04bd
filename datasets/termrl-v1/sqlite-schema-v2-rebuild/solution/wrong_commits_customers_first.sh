#!/bin/bash
# Plausible but wrong: converts orders only after committing the new schema and customers, so a bad order
# value leaves a half-migrated database.
set -euo pipefail
cat > /app/db/migrate_v2.py <<'PY'
#!/usr/bin/env python3
"""Migrate a shop database from schema 1 to schema 2 (see /app/db/schema_v2.sql), atomically."""
import re
import sqlite3
import sys
from pathlib import Path

V2 = Path(__file__).resolve().parent / "schema_v2.sql"
TOTAL = re.compile(r"^(?:EUR ?)?(\d+)(?:[.,](\d{1,2}))?$")
STATUSES = {"new", "paid", "shipped", "cancelled"}


class Bad(Exception):
    pass


def cents(text, oid):
    m = TOTAL.match((text or "").strip())
    if not m:
        raise Bad(f"bad total for order {oid}")
    frac = (m.group(2) or "").ljust(2, "0")
    return int(m.group(1)) * 100 + int(frac)


def status(text, oid):
    s = (text or "").strip().lower()
    s = "cancelled" if s == "canceled" else s
    if s not in STATUSES:
        raise Bad(f"bad status for order {oid}")
    return s


def day(text):
    d, m, y = text.strip().split("/")
    return f"{y}-{m}-{d}"


def stamp(text):
    date, time = text.strip().split(" ")
    return f"{day(date)}T{time}"


def statements(script):
    buf = ""
    for line in script.splitlines(keepends=True):
        if not buf and (line.strip().startswith("--") or not line.strip()):
            continue
        buf += line
        if sqlite3.complete_statement(buf):
            yield buf.strip()
            buf = ""


def main():
    if len(sys.argv) != 2 or not Path(sys.argv[1]).is_file():
        print("usage: migrate_v2.py DB", file=sys.stderr)
        sys.exit(2)
    con = sqlite3.connect(sys.argv[1], isolation_level=None)
    version = con.execute("PRAGMA user_version").fetchone()[0]
    if version == 2:
        print("already at version 2")
        return
    if version != 1:
        print(f"unknown schema version {version}", file=sys.stderr)
        sys.exit(1)
    customers = con.execute("SELECT id, name, email, phone, created FROM customers ORDER BY id").fetchall()
    orders = con.execute("SELECT id, customer_id, total, status, placed FROM orders ORDER BY id").fetchall()
    audit = con.execute("SELECT id, order_id, old_status, new_status FROM audit ORDER BY id").fetchall()
    try:
        new_customers, taken = [], set()
        for cid, name, email, phone, created in customers:
            words = (name or "").split()
            first, last = (words[0], " ".join(words[1:])) if len(words) > 1 else ("", " ".join(words))
            mail = (email or "").strip().lower() or None
            if mail in taken:
                mail = None
            elif mail:
                taken.add(mail)
            new_customers.append((cid, first, last, mail, phone, day(created)))
        ids = {c[0] for c in customers}
        kept, orphans = [], []
        for oid, cust, total, st, placed in orders:
            row = (oid, cust, total, st, placed)
            (kept if cust in ids else orphans).append(row)
    except Bad as e:
        print(str(e), file=sys.stderr)
        sys.exit(1)
    try:
        con.execute("BEGIN IMMEDIATE")
        for kind, name in con.execute("SELECT type, name FROM sqlite_master WHERE type IN ('view', 'trigger')").fetchall():
            con.execute(f'DROP {kind.upper()} "{name}"')
        for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").fetchall():
            con.execute(f'DROP TABLE "{name}"')
        for stmt in statements(V2.read_text()):
            if not stmt.upper().startswith("PRAGMA"):
                con.execute(stmt)
        con.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?)", new_customers)
        con.execute("COMMIT")  # customers are done: keep them even if orders fail
        con.execute("BEGIN")
        try:
            conv = lambda r: (r[0], r[1], cents(r[2], r[0]), status(r[3], r[0]), stamp(r[4]))
            kept, orphans = [conv(r) for r in kept], [conv(r) for r in orphans]
        except Bad as e:
            con.execute("ROLLBACK")
            print(str(e), file=sys.stderr)
            sys.exit(1)
        con.executemany("INSERT INTO orders VALUES (?,?,?,?,?)", kept)
        con.executemany("INSERT INTO orphan_orders VALUES (?,?,?,?,?)", orphans)
        con.executemany("INSERT INTO audit VALUES (?,?,?,?)", audit)
        if con.execute("PRAGMA foreign_key_check").fetchall():
            raise sqlite3.IntegrityError("foreign key check failed")
        con.execute("PRAGMA user_version = 2")
        con.execute("COMMIT")
    except sqlite3.Error as e:
        con.execute("ROLLBACK")
        print(f"migration failed: {e}", file=sys.stderr)
        sys.exit(1)
    print(f"migrated: {len(new_customers)} customers, {len(kept)} orders, {len(orphans)} orphan orders")


main()
PY
chmod +x /app/db/migrate_v2.py
