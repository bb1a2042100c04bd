"""load.py init DB | seen DB NAME | mark DB NAME | load DB < events.jsonl"""
import json
import sqlite3
import sys

SCHEMA = """
CREATE TABLE IF NOT EXISTS orders (
  order_id TEXT PRIMARY KEY, status TEXT, amount_minor INTEGER, currency TEXT, email TEXT,
  first_seen_at TEXT, updated_at TEXT, version TEXT);
CREATE TABLE IF NOT EXISTS loaded_files (name TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
"""


def main(cmd, db, name=None):
    con = sqlite3.connect(db)
    if cmd == "init":
        con.executescript(SCHEMA)
        con.commit()
        return 0
    if cmd == "seen":
        return 0 if con.execute("SELECT 1 FROM loaded_files WHERE name = ?", (name,)).fetchone() else 1
    if cmd == "mark":
        con.execute("INSERT OR IGNORE INTO loaded_files VALUES (?)", (name,))
        con.commit()
        return 0
    assert cmd == "load", cmd
    events = [json.loads(line) for line in sys.stdin if line.strip()]
    with con:  # one transaction per file
        for e in events:
            row = con.execute("SELECT version, first_seen_at FROM orders WHERE order_id = ?",
                              (e["order_id"],)).fetchone()
            e["version"] = str(e["version"])
            if row is None:
                con.execute("INSERT INTO orders VALUES (?,?,?,?,?,?,?,?)",
                            (e["order_id"], e["status"], e["amount_minor"], e["currency"], e["email"],
                             e["event_time"], e["event_time"], e["version"]))
                continue
            if e["version"] > row[0]:
                con.execute("UPDATE orders SET status=?, amount_minor=?, currency=?, email=?, first_seen_at=min(first_seen_at, ?),"
                            " updated_at=?, version=? WHERE order_id = ?",
                            (e["status"], e["amount_minor"], e["currency"], e["email"], e["event_time"],
                             e["event_time"], e["version"], e["order_id"]))
        if events:
            latest = max(e["event_time"] for e in events)
            con.execute("INSERT OR REPLACE INTO meta VALUES ('watermark', ?)", (latest,))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
