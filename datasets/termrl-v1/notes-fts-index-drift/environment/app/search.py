#!/usr/bin/env python3
"""Full-text search over the notes database.

    python3 search.py DB TERM...

Prints the ids of the best matching notes, best first, one per line (at most 20).
"""
import sqlite3
import sys


def search(con, terms, limit=20):
    query = " ".join(terms)
    sql = ("SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? "
           "ORDER BY bm25(notes_fts) DESC LIMIT ?")
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
