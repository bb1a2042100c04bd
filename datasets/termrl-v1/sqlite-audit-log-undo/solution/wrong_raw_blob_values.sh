#!/bin/bash
# Mistake: values go into json_object() as they are; json_object() refuses BLOBs, so every write of an avatar
# fails in the trigger and the application breaks.
set -e
python3 - <<'PYEOF'
COLS = {"accounts": ["id", "email", "balance", "avatar", "note"], "orders": ["id", "account_id", "amount", "status", "meta"]}


def v(x):
    return x


out = ["-- Audit triggers: one audit_log row per changed row (see /app/audit/undo.py for the way back)."]
for t, cols in COLS.items():
    for op, ref in (("I", "NEW"), ("D", "OLD")):
        event = "INSERT" if op == "I" else "DELETE"
        obj = ", ".join(f"'{c}', {v(f'{ref}.{c}')}" for c in cols)
        out.append(f"CREATE TRIGGER audit_{t}_{op.lower()} AFTER {event} ON {t} BEGIN\n"
                   f"  INSERT INTO audit_log (tbl, op, pk, changes) VALUES ('{t}', '{op}', {ref}.id, json_object({obj}));\nEND;")
    changed = " OR ".join(f"OLD.{c} IS NOT NEW.{c}" for c in cols)
    parts = "\n      UNION ALL ".join(
        f"SELECT '{c}' AS k, json_array({v(f'OLD.{c}')}, {v(f'NEW.{c}')}) AS val WHERE OLD.{c} IS NOT NEW.{c}" for c in cols)
    out.append(f"CREATE TRIGGER audit_{t}_u AFTER UPDATE ON {t} WHEN {changed} BEGIN\n"
               f"  INSERT INTO audit_log (tbl, op, pk, changes) VALUES ('{t}', 'U', OLD.id,\n"
               f"    (SELECT json_group_object(k, json(val)) FROM (\n      {parts})));\nEND;")
open("/app/audit/setup.sql", "w").write("\n\n".join(out) + "\n")
PYEOF
cat > /app/audit/undo.py <<'PYEOF'
#!/usr/bin/env python3
"""Roll accounts and orders back to the state right after audit_log change SEQ.

    python3 undo.py DB SEQ
"""
import json
import sqlite3
import sys

TABLES = {"accounts", "orders"}


def value(x):
    if isinstance(x, dict) and set(x) == {"hex"}:
        return bytes.fromhex(x["hex"])
    return x


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        target = int(sys.argv[2])
    except ValueError:
        print(f"error: SEQ must be an integer, got {sys.argv[2]!r}", file=sys.stderr)
        return 2
    con = sqlite3.connect(sys.argv[1], isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    last = con.execute("SELECT coalesce(max(seq), 0) FROM audit_log").fetchone()[0]
    if target < 0 or target > last:
        print(f"error: SEQ {target} is outside 0..{last}", file=sys.stderr)
        return 1
    con.execute("BEGIN IMMEDIATE")
    try:
        con.execute("PRAGMA defer_foreign_keys = ON")
        log = con.execute("SELECT seq, tbl, op, pk, changes FROM audit_log WHERE seq > ? ORDER BY seq DESC", (target,)).fetchall()
        for seq, tbl, op, pk, changes in log:
            if tbl not in TABLES:
                raise ValueError(f"audit row {seq}: unknown table {tbl!r}")
            ch = json.loads(changes)
            if op == "I":
                con.execute(f"DELETE FROM {tbl} WHERE id = ?", (pk,))
            elif op == "D":
                cols = list(ch)
                con.execute(f"INSERT INTO {tbl} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                            [value(ch[c]) for c in cols])
            else:
                now_id = ch["id"][1] if "id" in ch else pk
                sets = ", ".join(f"{c} = ?" for c in ch)
                con.execute(f"UPDATE {tbl} SET {sets} WHERE id = ?", [value(ch[c][0]) for c in ch] + [now_id])
        con.execute("COMMIT")
    except Exception as e:
        con.execute("ROLLBACK")
        print(f"error: undo failed, nothing changed: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
PYEOF
