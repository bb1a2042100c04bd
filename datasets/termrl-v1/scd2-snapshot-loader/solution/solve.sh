#!/bin/bash
set -euo pipefail
cat > /app/scd2.py <<'PY'
import argparse
import csv
import sqlite3
import sys

TRACKED = ("name", "city", "tier")


def connect(path):
    db = sqlite3.connect(path)
    db.executescript("""
    CREATE TABLE IF NOT EXISTS snapshot_rows (snap_date TEXT, customer_id TEXT, name TEXT, city TEXT, tier TEXT,
                                              email TEXT, PRIMARY KEY (snap_date, customer_id));
    CREATE TABLE IF NOT EXISTS loaded_dates (snap_date TEXT PRIMARY KEY);
    CREATE TABLE IF NOT EXISTS dim_customer (sk INTEGER PRIMARY KEY, customer_id TEXT, name TEXT, city TEXT, tier TEXT,
                                             email TEXT, valid_from TEXT, valid_to TEXT, is_current INTEGER);
    """)
    return db


def rebuild(db):
    snaps = {}
    for (d,) in db.execute("SELECT snap_date FROM loaded_dates"):
        snaps[d] = {}
    for d, cid, name, city, tier, email in db.execute(
            "SELECT snap_date, customer_id, name, city, tier, email FROM snapshot_rows"):
        snaps[d][cid] = {"name": name, "city": city, "tier": tier, "email": email}
    versions, open_v, email = [], {}, {}
    for d in sorted(snaps):
        snap = snaps[d]
        for cid in sorted(snap):
            v = snap[cid]
            email[cid] = v["email"]
            cur = open_v.get(cid)
            if cur is not None and all(cur[k] == v[k] for k in TRACKED):
                continue
            if cur is not None:
                cur["valid_to"] = d
            nv = {"customer_id": cid, **{k: v[k] for k in TRACKED}, "valid_from": d, "valid_to": None}
            versions.append(nv)
            open_v[cid] = nv
        for cid in list(open_v):
            if cid not in snap:
                open_v.pop(cid)["valid_to"] = d
    versions.sort(key=lambda v: (v["valid_from"], v["customer_id"]))
    db.execute("DELETE FROM dim_customer")
    db.executemany("INSERT INTO dim_customer VALUES (?,?,?,?,?,?,?,?,?)", [
        (sk, v["customer_id"], v["name"], v["city"], v["tier"], email[v["customer_id"]], v["valid_from"],
         v["valid_to"], 1 if v["valid_to"] is None else 0) for sk, v in enumerate(versions, 1)])


def load(path, snapshot, date):
    rows = {}
    with open(snapshot, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            cid = (r.get("customer_id") or "").strip().upper()
            if cid:
                rows[cid] = tuple((r.get(k) or "").strip() for k in ("name", "city", "tier", "email"))
    db = connect(path)
    with db:
        db.execute("DELETE FROM snapshot_rows WHERE snap_date = ?", (date,))
        db.executemany("INSERT INTO snapshot_rows VALUES (?,?,?,?,?,?)", [(date, cid, *v) for cid, v in rows.items()])
        db.execute("INSERT OR IGNORE INTO loaded_dates VALUES (?)", (date,))
        rebuild(db)
    db.close()


def asof(path, date):
    db = connect(path)
    w = csv.writer(sys.stdout)
    w.writerow(["customer_id", "name", "city", "tier", "email"])
    for row in db.execute("""SELECT customer_id, name, city, tier, email FROM dim_customer
                             WHERE valid_from <= ? AND (valid_to IS NULL OR ? < valid_to) ORDER BY customer_id""",
                          (date, date)):
        w.writerow(row)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    l = sub.add_parser("load")
    l.add_argument("db")
    l.add_argument("snapshot")
    l.add_argument("--date", required=True)
    a = sub.add_parser("asof")
    a.add_argument("db")
    a.add_argument("date")
    args = ap.parse_args()
    if args.cmd == "load":
        load(args.db, args.snapshot, args.date)
    else:
        asof(args.db, args.date)


main()
PY
