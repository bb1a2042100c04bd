#!/bin/bash
set -euo pipefail
# Applies each new message on top of the current rows as it arrives; late messages are never replayed into history.
cat > /app/bt_load.py <<'PY'
import json
import sqlite3
import sys
from datetime import datetime, timezone

OPEN = "~"  # sorts after every date string


def utc(ts):
    d = datetime.fromisoformat(ts.replace("Z", "+00:00"))
    if d.tzinfo is None:
        raise ValueError(f"timestamp without offset: {ts}")
    return d.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def assign(state, vf, vt, price):
    out = []
    for a, b, q in state:
        if a < vf:
            out.append((a, min(b, vf), q))
        if b > vt:
            out.append((max(a, vt), b, q))
    if price is not None:
        out.append((vf, vt, price))
    out.sort()
    merged = []
    for a, b, q in out:
        if merged and merged[-1][1] == a and merged[-1][2] == q:
            merged[-1] = (merged[-1][0], b, q)
        else:
            merged.append((a, b, q))
    return merged


def apply_now(con, sku, vf, vt, price, t):
    vt = vt if vt is not None else OPEN
    cur = con.execute("SELECT rowid, valid_from, COALESCE(valid_to, ?), price_cents FROM price_bt "
                      "WHERE sku = ? AND superseded_at IS NULL", (OPEN, sku)).fetchall()
    for rowid, a, b, q in cur:
        if a < vt and vf < b:
            con.execute("UPDATE price_bt SET superseded_at = ? WHERE rowid = ?", (t, rowid))
            for x, y in ((a, min(b, vf)), (max(a, vt), b)):
                if x < y:
                    con.execute("INSERT INTO price_bt VALUES (?, ?, ?, ?, ?, NULL)",
                                (sku, x, None if y == OPEN else y, q, t))
    if price is not None:
        con.execute("INSERT INTO price_bt VALUES (?, ?, ?, ?, ?, NULL)", (sku, vf, None if vt == OPEN else vt, price, t))


def main(db, batch):
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE IF NOT EXISTS _bt_messages (seq INTEGER PRIMARY KEY, sku TEXT NOT NULL, "
                "valid_from TEXT NOT NULL, valid_to TEXT, price_cents INTEGER, recorded_at TEXT NOT NULL)")
    touched = set()
    with open(batch) as f:
        for line in f:
            if not line.strip():
                continue
            m = json.loads(line)
            cur = con.execute("INSERT OR IGNORE INTO _bt_messages VALUES (?, ?, ?, ?, ?, ?)",
                              (m["seq"], m["sku"], m["valid_from"], m["valid_to"], m["price_cents"],
                               utc(m["recorded_at"])))
            if cur.rowcount:
                apply_now(con, m["sku"], m["valid_from"], m["valid_to"], m["price_cents"], utc(m["recorded_at"]))
    con.commit()
    con.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
PY
