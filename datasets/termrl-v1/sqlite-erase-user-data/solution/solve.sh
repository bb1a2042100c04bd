#!/bin/bash
# Reference: anonymise in one transaction (user fields, shipping addresses, the user's messages, every spelling
# of the address inside the audit JSON), then purge the copies that the schema's own triggers keep (and that
# the anonymising UPDATE and DELETE have just made) in users_history and messages_archive; VACUUM and a TRUNCATE
# checkpoint leave no old page in the file or the WAL.
set -e
cat > /app/gdpr/erase.py <<'PYEOF'
#!/usr/bin/env python3
"""Erase one customer's personal data from the shop database (right to erasure).

    python3 erase.py DB EMAIL
"""
import json
import re
import sqlite3
import sys


def scrub(value, pattern, repl):
    if isinstance(value, str):
        return pattern.sub(repl, value)
    if isinstance(value, list):
        return [scrub(v, pattern, repl) for v in value]
    if isinstance(value, dict):
        return {scrub(k, pattern, repl): scrub(v, pattern, repl) for k, v in value.items()}
    return value


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    db, email = sys.argv[1], sys.argv[2].strip()
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    row = con.execute("SELECT id, email FROM users WHERE lower(email) = lower(?)", (email,)).fetchone()
    if row is None:
        print(f"error: no user with e-mail {email!r}", file=sys.stderr)
        return 1
    uid, stored = row
    repl = f"erased-{uid}@invalid"
    pattern = re.compile(re.escape(stored), re.IGNORECASE)
    con.execute("BEGIN IMMEDIATE")
    try:
        con.execute("UPDATE users SET email = ?, name = NULL, phone = NULL WHERE id = ?", (repl, uid))
        con.execute("UPDATE orders SET shipping_address = NULL WHERE user_id = ?", (uid,))
        con.execute("DELETE FROM messages WHERE user_id = ?", (uid,))
        con.execute("DELETE FROM users_history WHERE user_id = ?", (uid,))
        con.execute("DELETE FROM messages_archive WHERE user_id = ?", (uid,))
        for aid, detail in con.execute("SELECT id, detail FROM audit WHERE instr(lower(detail), lower(?)) > 0", (stored,)).fetchall():
            con.execute("UPDATE audit SET detail = ? WHERE id = ?", (json.dumps(scrub(json.loads(detail), pattern, repl)), aid))
        con.execute("COMMIT")
    except Exception as e:
        con.execute("ROLLBACK")
        print(f"error: erasure failed, nothing changed: {e}", file=sys.stderr)
        return 1
    con.execute("VACUUM")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
PYEOF
