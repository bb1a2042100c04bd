#!/usr/bin/env python3
"""Incremental extract of the shop's orders into the warehouse.

    python3 extract.py SOURCE_DB WAREHOUSE_DB STATE_JSON

Runs every few minutes from cron. See EXTRACT.md for the contract.
"""
import json
import os
import sqlite3
import sys
from datetime import datetime, timezone

DW_SCHEMA = """
CREATE TABLE IF NOT EXISTS dw_orders (
    id          INTEGER PRIMARY KEY,
    customer    TEXT NOT NULL,
    status      TEXT NOT NULL,
    total_cents INTEGER NOT NULL,
    updated_at  TEXT NOT NULL
);
"""


def to_utc(ts):
    """Any of the writers' timestamp formats -> 'YYYY-MM-DDTHH:MM:SS.ffffffZ' (UTC)."""
    dt = datetime.fromisoformat(ts.strip().replace("Z", "+00:00"))
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def load_state(path):
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return {"watermark": None}


def save_state(path, state):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f)
    os.replace(tmp, path)


def changed_rows(src, watermark):
    if watermark is None:
        sql = "SELECT id, customer, status, total_cents, updated_at FROM orders WHERE deleted_at IS NULL"
        return src.execute(sql).fetchall()
    sql = ("SELECT id, customer, status, total_cents, updated_at FROM orders "
           "WHERE deleted_at IS NULL AND updated_at > ?")
    return src.execute(sql, (watermark,)).fetchall()


def main(source_db, warehouse_db, state_path):
    state = load_state(state_path)
    src = sqlite3.connect(f"file:{source_db}?mode=ro", uri=True)
    dw = sqlite3.connect(warehouse_db)
    dw.executescript(DW_SCHEMA)

    rows = changed_rows(src, state["watermark"])
    new_mark = state["watermark"]
    with dw:
        for oid, customer, status, total, updated in rows:
            dw.execute("INSERT OR IGNORE INTO dw_orders VALUES (?, ?, ?, ?, ?)",
                       (oid, customer, status, total, to_utc(updated)))
            if new_mark is None or updated > new_mark:
                new_mark = updated
    save_state(state_path, {"watermark": new_mark})
    print(f"extracted {len(rows)} rows, watermark {new_mark}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
