#!/bin/bash
# Reference: group records by transaction, undo savepoint rollbacks, apply committed transactions in commit order in one SQLite transaction.
set -e
cat > /app/replay.py <<'PYEOF'
#!/usr/bin/env python3
"""Point-in-time replay of a primary's changelog onto a snapshot database."""
import argparse
import json
import sqlite3
import sys
from pathlib import Path


def fail(msg):
    print(msg, file=sys.stderr)
    sys.exit(1)


def read_log(folder):
    segs = sorted(p for p in Path(folder).iterdir() if p.name.endswith(".log"))
    records, last = [], 0
    for si, seg in enumerate(segs):
        text = seg.read_bytes().decode("utf-8")
        lines = text.split("\n")
        torn = lines.pop()  # text after the final newline ('' when the file ends with one)
        if torn and si != len(segs) - 1:
            fail(f"corrupt changelog record after lsn {last}")
        for line in lines:
            try:
                rec = json.loads(line)
                assert isinstance(rec, dict) and isinstance(rec["lsn"], int) and "op" in rec and "tx" in rec
            except (ValueError, AssertionError, KeyError):
                fail(f"corrupt changelog record after lsn {last}")
            if rec["lsn"] != last + 1:
                fail(f"changelog gap after lsn {last}")
            records.append(rec)
            last = rec["lsn"]
    return records


def val(v):
    return bytes.fromhex(v["$blob"]) if isinstance(v, dict) else v


def transactions(records, upto):
    """Committed transactions (commit lsn <= upto) in commit order, each with the ops still in effect."""
    live = {}
    done = []
    for rec in records:
        if rec["lsn"] > upto:
            break
        tx, op = rec["tx"], rec["op"]
        if op == "begin":
            live[tx] = ([], [])
            continue
        ops, sps = live[tx]
        if op == "commit":
            done.append((rec["lsn"], ops))
            del live[tx]
        elif op == "rollback":
            del live[tx]
        elif op == "savepoint":
            sps.append((rec["name"], len(ops)))
        elif op == "rollback_to":
            i = max(j for j, s in enumerate(sps) if s[0] == rec["name"])
            del ops[sps[i][1]:]
            del sps[i + 1:]
        elif op == "release":
            i = max(j for j, s in enumerate(sps) if s[0] == rec["name"])
            del sps[i:]
        else:
            ops.append(rec)
    return done


def q(name):
    return '"' + name.replace('"', '""') + '"'


def apply(con, rec):
    op, table = rec["op"], rec.get("table")
    if op == "ddl":
        con.execute(rec["sql"])
        return
    if op == "insert":
        cols = list(rec["row"])
        try:
            con.execute(f"INSERT INTO {q(table)} ({', '.join(map(q, cols))}) VALUES ({', '.join('?' * len(cols))})",
                        [val(rec["row"][c]) for c in cols])
        except sqlite3.IntegrityError as e:
            raise RuntimeError(f"insert failed: {e}")
        return
    keys = list(rec["key"])
    where = " AND ".join(f"{q(k)} = ?" for k in keys)
    kv = [val(rec["key"][k]) for k in keys]
    if op == "delete":
        cur = con.execute(f"DELETE FROM {q(table)} WHERE {where}", kv)
    elif op == "update":
        sets = list(rec["set"])
        try:
            cur = con.execute(f"UPDATE {q(table)} SET {', '.join(q(c) + ' = ?' for c in sets)} WHERE {where}",
                              [val(rec["set"][c]) for c in sets] + kv)
        except sqlite3.IntegrityError as e:
            raise RuntimeError(f"update failed: {e}")
    else:
        raise RuntimeError(f"unknown op {op}")
    if cur.rowcount != 1:
        raise RuntimeError(f"{op}: no row with key {rec['key']}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("log")
    ap.add_argument("--until", type=int)
    a = ap.parse_args()
    records = read_log(a.log)
    end = records[-1]["lsn"] if records else 0
    con = sqlite3.connect(a.db, isolation_level=None)
    (start,) = con.execute("SELECT lsn FROM _replica").fetchone()
    target = end if a.until is None else a.until
    if target > end:
        fail(f"changelog ends at lsn {end}")
    if target < start:
        fail(f"cannot rewind: database is at lsn {start}")
    todo = [(c, ops) for c, ops in transactions(records, target) if c > start]
    con.execute("BEGIN IMMEDIATE")
    try:
        for _, ops in todo:
            for rec in ops:
                try:
                    apply(con, rec)
                except (RuntimeError, sqlite3.Error) as e:
                    raise RuntimeError(f"divergence at lsn {rec['lsn']}: {e}")
        con.execute("UPDATE _replica SET lsn = ?", (target,))
        con.execute("COMMIT")
    except RuntimeError as e:
        con.execute("ROLLBACK")
        fail(str(e))
    print(f"replayed {len(todo)} transactions, now at lsn {target}")


if __name__ == "__main__":
    main()
PYEOF
