#!/bin/bash
# Reference: triggers that feed the external-content index the OLD values on delete/update (FTS5 cannot look
# them up itself once the row is gone or changed), an update trigger for every column, a BEFORE INSERT trigger
# for INSERT OR REPLACE (its implicit delete fires no delete trigger unless recursive_triggers is on), literal
# quoting of search terms, weighted bm25 best-first with an id tie-break; then the shipped database gets the
# new triggers and a full 'rebuild' of its index.
set -e
cat > /app/app/schema.sql <<'SQL'
-- Notes and their full-text index. notes_fts is an external-content FTS5 table over notes: it stores only
-- the index; the text itself stays in notes, and the triggers below keep the index in step with the table.
-- FTS5 cannot read the old text of a changed or deleted row by itself, so every removal passes the old
-- values with the 'delete' command.
CREATE TABLE notes (
  id         INTEGER PRIMARY KEY,
  title      TEXT NOT NULL,
  body       TEXT NOT NULL,
  updated_at TEXT NOT NULL DEFAULT (datetime('now'))
);

CREATE VIRTUAL TABLE notes_fts USING fts5(title, body, content = 'notes', content_rowid = 'id');

-- INSERT OR REPLACE removes the old row without firing the delete trigger (recursive_triggers is off by
-- default), so take the old row out of the index before the insert.
CREATE TRIGGER notes_bi BEFORE INSERT ON notes BEGIN
  INSERT INTO notes_fts (notes_fts, rowid, title, body)
    SELECT 'delete', id, title, body FROM notes WHERE id = new.id;
END;

CREATE TRIGGER notes_ai AFTER INSERT ON notes BEGIN
  INSERT INTO notes_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;

CREATE TRIGGER notes_ad AFTER DELETE ON notes BEGIN
  INSERT INTO notes_fts (notes_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
END;

CREATE TRIGGER notes_au AFTER UPDATE ON notes BEGIN
  INSERT INTO notes_fts (notes_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
  INSERT INTO notes_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
SQL
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
for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'notes'").fetchall():
    con.execute(f'DROP TRIGGER "{name}"')
for trig in re.findall(r"CREATE TRIGGER.*?\bEND;", schema, re.S):
    con.execute(trig)
con.execute("INSERT INTO notes_fts (notes_fts) VALUES ('rebuild')")
con.execute("COMMIT")
con.execute("INSERT INTO notes_fts (notes_fts, rank) VALUES ('integrity-check', 1)")
PYEOF
