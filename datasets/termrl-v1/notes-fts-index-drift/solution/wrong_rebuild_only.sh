#!/bin/bash
# Mistake: treats the drift as a one-off: rebuilds the shipped index and fixes search.py, but leaves the
# triggers, so every later delete or update corrupts the index again.
set -e
cat > /app/app/search.py <<'PYEOF'
#!/usr/bin/env python3
"""Full-text search over the notes database.

    python3 search.py DB TERM...

Every whitespace-separated term is literal (quoted for FTS5); a trailing * makes it a prefix. Prints the ids
of the best matching notes (bm25, title weighted 5, body 1), best first, ties by id, one per line (at most 20).
"""
import sqlite3
import sys


def fts_term(term):
    prefix = term.endswith("*")
    core = term.rstrip("*") if prefix else term
    return '"' + core.replace('"', '""') + '"' + ("*" if prefix else "")


def search(con, terms, limit=20):
    words = [w for t in terms for w in t.split()]
    query = " AND ".join(fts_term(w) for w in words)
    sql = ("SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? "
           "ORDER BY bm25(notes_fts, 5.0, 1.0), rowid LIMIT ?")
    return [r[0] for r in con.execute(sql, (query, limit))]


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    con = sqlite3.connect(sys.argv[1])
    for note_id in search(con, sys.argv[2:]):
        print(note_id)
    return 0


if __name__ == "__main__":
    sys.exit(main())
PYEOF
python3 - <<'PYEOF'
import re
import sqlite3
schema = open("/app/app/schema.sql").read()
con = sqlite3.connect("/app/data/notes.db", isolation_level=None)
con.execute("BEGIN")
con.execute("INSERT INTO notes_fts (notes_fts) VALUES ('rebuild')")
con.execute("COMMIT")
con.execute("INSERT INTO notes_fts (notes_fts, rank) VALUES ('integrity-check', 1)")
PYEOF
