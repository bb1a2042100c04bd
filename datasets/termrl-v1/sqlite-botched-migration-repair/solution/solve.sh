#!/bin/bash
# Reference: the three faults of migrate_v2.py are undone from the backup: replace(price, '.', '') only scales
# prices that have two decimals ('19.9' -> 199, '7' -> 7), substr() dropped the UTC offset instead of applying it,
# and the de-duplication of notes grouped by order only, deleting every note but the first of each order. Only
# rows the shop has not changed since are repaired; lost notes come back (with their old id when it is free)
# unless their order was deleted since; a re-run finds nothing to do.
set -e
cat > /app/shop/repair.py <<'PYEOF'
#!/usr/bin/env python3
"""Repair a shop database damaged by migrate_v2.py, using the backup taken just before it.

    python3 repair.py BACKUP_V1 CURRENT
"""
import sqlite3
import sys
from datetime import datetime, timedelta
from decimal import Decimal


def cents(text):
    return int((Decimal(text) * 100).to_integral_exact())


def utc(local):
    dt = datetime.strptime(local[:19], "%Y-%m-%d %H:%M:%S")
    off = local[19:]
    sign = 1 if off[0] == "+" else -1
    return (dt - sign * timedelta(hours=int(off[1:3]), minutes=int(off[4:6]))).strftime("%Y-%m-%d %H:%M:%S")


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bk = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
    if bk.execute("PRAGMA user_version").fetchone()[0] != 1:
        print("error: the backup is not a version-1 database", file=sys.stderr)
        return 1
    con = sqlite3.connect(sys.argv[2], isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    if con.execute("PRAGMA user_version").fetchone()[0] != 2:
        print("error: the current database is not at version 2", file=sys.stderr)
        return 1
    applied = con.execute("SELECT max(applied_at) FROM _migrations WHERE version = 2").fetchone()[0]
    con.execute("BEGIN IMMEDIATE")
    try:
        for pid, price, updated in bk.execute("SELECT id, price, updated_at FROM products"):
            con.execute("UPDATE products SET price_cents = ? WHERE id = ? AND updated_at <= ? AND price_cents IS NOT ?",
                        (cents(price), pid, applied, cents(price)))
        for oid, created in bk.execute("SELECT id, created_at FROM orders"):
            con.execute("UPDATE orders SET created_utc = ? WHERE id = ? AND created_utc IS NOT ?", (utc(created), oid, utc(created)))
        have = {(o, n) for o, n in con.execute("SELECT order_id, note FROM order_notes")}
        used = {r[0] for r in con.execute("SELECT id FROM order_notes")}
        orders = {r[0] for r in con.execute("SELECT id FROM orders")}
        lost = [(nid, oid, note) for nid, oid, note in bk.execute("SELECT id, order_id, note FROM order_notes ORDER BY id")
                if oid in orders and (oid, note) not in have]
        # old ids first where they are free, then the rest with new ids (above every id in use)
        for nid, oid, note in lost:
            if nid not in used:
                con.execute("INSERT INTO order_notes (id, order_id, note) VALUES (?,?,?)", (nid, oid, note))
        for nid, oid, note in lost:
            if nid in used:
                con.execute("INSERT INTO order_notes (order_id, note) VALUES (?,?)", (oid, note))
        con.execute("COMMIT")
    except Exception as e:
        con.execute("ROLLBACK")
        print(f"error: repair failed, nothing changed: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
PYEOF
