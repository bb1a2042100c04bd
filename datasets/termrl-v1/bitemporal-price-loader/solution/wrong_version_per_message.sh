#!/bin/bash
set -euo pipefail
# Writes one transaction-time version per message, so messages sharing an instant leave empty rows (recorded_at = superseded_at).
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


def rebuild(con, sku):
    msgs = con.execute("SELECT valid_from, valid_to, price_cents, recorded_at FROM _bt_messages "
                       "WHERE sku = ? ORDER BY seq", (sku,)).fetchall()
    con.execute("DELETE FROM price_bt WHERE sku = ?", (sku,))
    state, open_rows, rows = [], {}, []
    i = 0
    while i < len(msgs):
        t = msgs[i][3]
        vf, vt, p, _ = msgs[i]
        state = assign(state, vf, vt if vt is not None else OPEN, p)
        i += 1
        now = set(state)
        for key in [k for k in open_rows if k not in now]:
            rows.append(key + (open_rows.pop(key), t))
        for key in state:
            if key not in open_rows:
                open_rows[key] = t
    for key, since in open_rows.items():
        rows.append(key + (since, None))
    con.executemany("INSERT INTO price_bt (sku, valid_from, valid_to, price_cents, recorded_at, superseded_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [(sku, a, None if b == OPEN else b, p, r, s) for a, b, p, r, s in rows])


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
                touched.add(m["sku"])
    for sku in sorted(touched):
        rebuild(con, sku)
    con.commit()
    con.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
PY
