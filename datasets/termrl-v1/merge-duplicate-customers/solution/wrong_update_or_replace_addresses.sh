#!/bin/bash
# Mistake: addresses are moved with UPDATE OR REPLACE, so on a label clash the duplicate's address replaces the survivor's.
set -e
cat > /app/dedupe.py <<'PYEOF'
#!/usr/bin/env python3
"""Merge duplicate customers (same e-mail address) in place.

    python3 dedupe.py DB
"""
import sqlite3
import sys


def main():
    con = sqlite3.connect(sys.argv[1], isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    con.execute("BEGIN IMMEDIATE")
    try:
        start = con.total_changes
        had_index = con.execute("SELECT 1 FROM sqlite_master WHERE name = 'customers_email_unique'").fetchone()
        groups, email_of = {}, {}
        if con.execute("PRAGMA foreign_key_check").fetchall():
            raise sqlite3.IntegrityError("the database already has foreign key violations")
        for cid, email, created in con.execute("SELECT id, email, created_at FROM customers").fetchall():
            email_of[cid] = email
            key = (email or "").strip().lower()
            if not key and email is not None:
                con.execute("UPDATE customers SET email = NULL WHERE id = ?", (cid,))
            if key:
                groups.setdefault(key, []).append((created, cid))
        removed = survivors = 0
        for key, members in sorted(groups.items()):
            members.sort()
            ids = [cid for _, cid in members]
            keep = ids[0]
            rows = {r[0]: r for r in con.execute(
                f"SELECT id, name, phone FROM customers WHERE id IN ({','.join('?' * len(ids))})", ids)}
            name = next((rows[i][1] for i in ids if (rows[i][1] or "").strip()), rows[keep][1])
            phone = next((rows[i][2] for i in ids if (rows[i][2] or "").strip()), rows[keep][2])
            if (key, name, phone) != (email_of[keep], rows[keep][1], rows[keep][2]):
                con.execute("UPDATE customers SET email = ?, name = ?, phone = ? WHERE id = ?", (key, name, phone, keep))
            if len(ids) == 1:
                continue
            survivors += 1
            others = ids[1:]
            for dup in others:
                con.execute("UPDATE orders SET customer_id = ? WHERE customer_id = ?", (keep, dup))
                # addresses: a label the survivor already has stays the survivor's (earlier member wins)
                con.execute("UPDATE OR REPLACE addresses SET customer_id = ? WHERE customer_id = ?", (keep, dup))
                refs = con.execute("SELECT referrer_id, referee_id FROM referrals WHERE referrer_id = ? OR referee_id = ?",
                                   (dup, dup)).fetchall()
                con.execute("DELETE FROM referrals WHERE referrer_id = ? OR referee_id = ?", (dup, dup))
                for a, b in refs:
                    a, b = (keep if a == dup else a), (keep if b == dup else b)
                    if a != b:
                        con.execute("INSERT OR IGNORE INTO referrals VALUES (?, ?)", (a, b))
                con.execute("DELETE FROM customers WHERE id = ?", (dup,))
                removed += 1
        con.execute("CREATE UNIQUE INDEX IF NOT EXISTS customers_email_unique ON customers (email)")
        # nothing to do: leave the file exactly as it was
        con.execute("COMMIT" if con.total_changes != start or not had_index else "ROLLBACK")
    except sqlite3.Error as e:
        con.execute("ROLLBACK")
        print(f"dedupe failed: {e}", file=sys.stderr)
        return 1
    print(f"merged {removed} duplicates into {survivors} customers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
PYEOF
