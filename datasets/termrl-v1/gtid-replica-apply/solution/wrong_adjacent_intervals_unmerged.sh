#!/bin/bash
set -euo pipefail
# Merges only overlapping intervals, not adjacent ones: the set is written as 1:2:3:... .
cat > /app/gtid_apply.py <<'PY'
import json
import sqlite3
import sys


def parse(text):
    out = []
    for part in text.split(":"):
        if "-" in part:
            a, b = part.split("-")
            out.append((int(a), int(b)))
        else:
            out.append((int(part), int(part)))
    return out


def fmt(iv):
    return ":".join(str(a) if a == b else f"{a}-{b}" for a, b in iv)


def add(iv, n):
    iv = sorted(iv + [(n, n)])
    merged = []
    for a, b in iv:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def contains(iv, n):
    return any(a <= n <= b for a, b in iv)


class Conflict(Exception):
    pass


def apply_event(con, ev):
    op = ev["op"]
    if op == "insert":
        r = ev["row"]
        if con.execute("SELECT 1 FROM accounts WHERE id = ?", (r["id"],)).fetchone():
            raise Conflict(f"insert of existing id {r['id']}")
        con.execute("INSERT INTO accounts (id, owner, balance) VALUES (?, ?, ?)", (r["id"], r["owner"], r["balance"]))
        return
    b = ev["before"]
    cur = con.execute("SELECT id, owner, balance FROM accounts WHERE id = ?", (b["id"],)).fetchone()
    if cur is None or cur != (b["id"], b["owner"], b["balance"]):
        raise Conflict(f"{op}: before image does not match row {b['id']}")
    if op == "delete":
        con.execute("DELETE FROM accounts WHERE id = ?", (b["id"],))
    else:
        a = ev["after"]
        if a["id"] != b["id"] and con.execute("SELECT 1 FROM accounts WHERE id = ?", (a["id"],)).fetchone():
            raise Conflict(f"update to existing id {a['id']}")
        con.execute("UPDATE accounts SET id = ?, owner = ?, balance = ? WHERE id = ?",
                    (a["id"], a["owner"], a["balance"], b["id"]))


def main(db, path):
    con = sqlite3.connect(db, isolation_level=None)
    executed = {u: parse(t) for u, t in con.execute("SELECT source_uuid, intervals FROM _gtid_executed")}
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            tx = json.loads(line)
            uuid, n = tx["gtid"].rsplit(":", 1)
            n = int(n)
            if contains(executed.get(uuid, []), n):
                continue
            con.execute("BEGIN")
            try:
                for ev in tx["events"]:
                    apply_event(con, ev)
            except Conflict as e:
                con.execute("ROLLBACK")
                print(f"conflict in {tx['gtid']}: {e}", file=sys.stderr)
                sys.exit(3)
            executed[uuid] = add(executed.get(uuid, []), n)
            con.execute("INSERT INTO _gtid_executed (source_uuid, intervals) VALUES (?, ?) "
                        "ON CONFLICT(source_uuid) DO UPDATE SET intervals = excluded.intervals",
                        (uuid, fmt(executed[uuid])))
            con.execute("COMMIT")
    con.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
PY
