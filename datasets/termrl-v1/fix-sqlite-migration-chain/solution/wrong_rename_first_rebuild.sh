#!/bin/bash
# Mistake: runner and 004 fixed, but 003 still renames the live table first; SQLite rewrites the
# orders FOREIGN KEY to customers_old, which is then dropped.
set -e
cd /app/app
cat > migrations/003_customer_email_nocase.sql <<'SQLEOF'
-- foreign_keys: off
-- E-mail addresses are unique regardless of letter case; customers get a tier.
ALTER TABLE customers RENAME TO customers_old;
CREATE TABLE customers (
    id      INTEGER PRIMARY KEY,
    email   TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name    TEXT,
    created TEXT NOT NULL,
    tier    TEXT NOT NULL DEFAULT 'basic'
);
INSERT INTO customers (id, email, name, created) SELECT id, email, name, created FROM customers_old;
DROP TABLE customers_old;
SQLEOF
cat > migrations/004_price_cents.sql <<'SQLEOF'
-- foreign_keys: off
-- Money as integer cents.
CREATE TABLE orders_new (
    id          INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    status      TEXT NOT NULL DEFAULT 'new'
);
INSERT INTO orders_new (id, customer_id, price_cents, status)
    SELECT id, customer_id, CAST(ROUND(price * 100) AS INTEGER), status FROM orders;
DROP TABLE orders;
ALTER TABLE orders_new RENAME TO orders;
CREATE INDEX orders_customer ON orders (customer_id);
CREATE TRIGGER orders_status_audit AFTER UPDATE OF status ON orders
BEGIN
    INSERT INTO audit (order_id, old_status, new_status) VALUES (old.id, old.status, new.status);
END;
SQLEOF
cat > migrate.py <<'PYEOF'
#!/usr/bin/env python3
"""Bring a shop database up to the newest schema.

    python3 migrate.py DB

Migrations are the files migrations/NNN_name.sql, applied in order, starting after the version recorded
in the database (PRAGMA user_version; 0 for a new database). A migration whose first line is
`-- foreign_keys: off` rebuilds tables and must run with foreign-key enforcement switched off.
Each migration runs in its own transaction together with the version bump: it is applied and recorded
completely, or not at all.
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


def statements(sql):
    """Split a script into complete statements (trigger bodies contain semicolons)."""
    out, cur = [], ""
    for line in sql.splitlines(keepends=True):
        cur += line
        if sqlite3.complete_statement(cur):
            if cur.strip():
                out.append(cur.strip())
            cur = ""
    if cur.strip() and not all(l.strip().startswith("--") or not l.strip() for l in cur.splitlines()):
        out.append(cur.strip())
    return out


def main():
    db = sys.argv[1]
    con = sqlite3.connect(db, isolation_level=None)   # transactions are managed here, explicitly
    current = con.execute("PRAGMA user_version").fetchone()[0]
    todo = [(v, p) for v, p in migrations() if v > current]
    if not todo:
        print(f"up to date at version {current}")
        return 0
    for version, path in todo:
        sql = path.read_text()
        fk_off = sql.startswith("-- foreign_keys: off")
        # PRAGMA foreign_keys is a no-op inside a transaction: switch it before BEGIN
        con.execute(f"PRAGMA foreign_keys = {'OFF' if fk_off else 'ON'}")
        try:
            con.execute("BEGIN IMMEDIATE")
            for stmt in statements(sql):
                con.execute(stmt)
            bad = con.execute("PRAGMA foreign_key_check").fetchall()
            if bad:
                raise sqlite3.IntegrityError(f"foreign key violations: {bad[:5]}")
            con.execute(f"PRAGMA user_version = {version}")
            con.execute("COMMIT")
        except sqlite3.Error as e:
            if con.in_transaction:
                con.execute("ROLLBACK")
            print(f"migration {path.name} failed: {e}", file=sys.stderr)
            return 1
        finally:
            con.execute("PRAGMA foreign_keys = ON")
        print(f"applied {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
PYEOF
