#!/bin/bash
set -euo pipefail
# Classic incremental SCD2 merge: correct only when snapshots arrive in date order,
# and it never back-fills the type-1 email into older versions.
cat > /app/scd2.py <<'PY'
import argparse
import csv
import sqlite3
import sys

ap = argparse.ArgumentParser()
sub = ap.add_subparsers(dest="cmd", required=True)
l = sub.add_parser("load"); l.add_argument("db"); l.add_argument("snapshot"); l.add_argument("--date", required=True)
a = sub.add_parser("asof"); a.add_argument("db"); a.add_argument("date")
args = ap.parse_args()
db = sqlite3.connect(args.db)
db.execute("""CREATE TABLE IF NOT EXISTS dim_customer (sk INTEGER PRIMARY KEY, customer_id TEXT, name TEXT, city TEXT,
              tier TEXT, email TEXT, valid_from TEXT, valid_to TEXT, is_current INTEGER)""")
if args.cmd == "load":
    rows = {}
    for r in csv.DictReader(open(args.snapshot, newline="", encoding="utf-8")):
        cid = r["customer_id"].strip().upper()
        if cid:
            rows[cid] = [r[k].strip() for k in ("name", "city", "tier", "email")]
    d = args.date
    cur = {r[0]: r for r in db.execute("SELECT customer_id, name, city, tier, sk FROM dim_customer WHERE valid_to IS NULL")}
    for cid, v in sorted(rows.items()):
        c = cur.get(cid)
        if c and list(c[1:4]) == v[:3]:
            db.execute("UPDATE dim_customer SET email=? WHERE sk=?", (v[3], c[4]))
            continue
        if c:
            db.execute("UPDATE dim_customer SET valid_to=?, is_current=0 WHERE sk=?", (d, c[4]))
        db.execute("INSERT INTO dim_customer (customer_id,name,city,tier,email,valid_from,valid_to,is_current) VALUES (?,?,?,?,?,?,NULL,1)", (cid, *v, d))
    for cid, c in cur.items():
        if cid not in rows:
            db.execute("UPDATE dim_customer SET valid_to=?, is_current=0 WHERE sk=?", (d, c[4]))
    db.commit()
else:
    w = csv.writer(sys.stdout)
    w.writerow(["customer_id", "name", "city", "tier", "email"])
    for row in db.execute("SELECT customer_id,name,city,tier,email FROM dim_customer WHERE valid_from<=? AND (valid_to IS NULL OR ?<valid_to) ORDER BY customer_id", (args.date, args.date)):
        w.writerow(row)
PY
