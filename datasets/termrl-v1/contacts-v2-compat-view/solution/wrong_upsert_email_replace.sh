#!/bin/bash
# Mistake: the UPDATE trigger writes the address with INSERT OR REPLACE: a clash with another person's address
# silently takes it away from them instead of failing the update.
set -e
cat > /app/db/migrate.py <<'PYEOF'
#!/usr/bin/env python3
"""Migrate a contacts database from schema version 1 to 2, with a compatibility view for the legacy app.

    python3 migrate.py DB
"""
import re
import sqlite3
import sys

SCHEMA_V2 = """
CREATE TABLE people (
  id          INTEGER PRIMARY KEY,
  given_name  TEXT NOT NULL,
  family_name TEXT NOT NULL DEFAULT '',
  created_at  TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE emails (
  person_id INTEGER PRIMARY KEY REFERENCES people(id) ON DELETE CASCADE,
  address   TEXT NOT NULL UNIQUE COLLATE NOCASE
);
CREATE TABLE person_tags (
  person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
  tag       TEXT NOT NULL,
  PRIMARY KEY (person_id, tag)
) WITHOUT ROWID;
CREATE TABLE calls (
  id         INTEGER PRIMARY KEY,
  contact_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
  at         TEXT NOT NULL,
  note       TEXT
);
CREATE INDEX calls_contact ON calls(contact_id);
"""

N = "trim({x})"
PREFIX = "rtrim(trim({x}), replace(trim({x}), ' ', ''))"          # up to and including the last space
GIVEN = f"CASE WHEN {PREFIX} = '' THEN {N} ELSE substr({PREFIX}, 1, length({PREFIX}) - 1) END"
FAMILY = f"CASE WHEN {PREFIX} = '' THEN '' ELSE substr({N}, length({PREFIX}) + 1) END"
TAGS = ("SELECT DISTINCT {pid}, lower(trim(value)) FROM json_each('[\"' || replace(coalesce({x}, ''), ',', '\",\"') || '\"]') "
        "WHERE trim(value) <> ''")


def g(tpl, x):
    return tpl.replace("{x}", x)


COMPAT = f"""
CREATE VIEW contacts (id, full_name, email, tags, created_at) AS
SELECT p.id,
       CASE WHEN p.family_name = '' THEN p.given_name ELSE p.given_name || ' ' || p.family_name END,
       e.address,
       coalesce((SELECT group_concat(tag, ',') FROM
                   (SELECT tag FROM person_tags t WHERE t.person_id = p.id ORDER BY tag)), ''),
       p.created_at
FROM people p LEFT JOIN emails e ON e.person_id = p.id;

CREATE TRIGGER contacts_insert INSTEAD OF INSERT ON contacts BEGIN
  INSERT INTO people (id, given_name, family_name, created_at)
  VALUES (NEW.id, {g(GIVEN, 'NEW.full_name')}, {g(FAMILY, 'NEW.full_name')}, coalesce(NEW.created_at, datetime('now')));
  INSERT INTO emails (person_id, address)
  SELECT coalesce(NEW.id, (SELECT max(id) FROM people)), trim(NEW.email) WHERE trim(coalesce(NEW.email, '')) <> '';
  INSERT INTO person_tags (person_id, tag)
  {g(TAGS, 'NEW.tags').replace('{pid}', 'coalesce(NEW.id, (SELECT max(id) FROM people))')};
END;

CREATE TRIGGER contacts_update INSTEAD OF UPDATE ON contacts BEGIN
  UPDATE people SET given_name = {g(GIVEN, 'NEW.full_name')}, family_name = {g(FAMILY, 'NEW.full_name')},
                    created_at = coalesce(NEW.created_at, OLD.created_at)
  WHERE id = OLD.id;
  DELETE FROM emails WHERE person_id = OLD.id;
  INSERT OR REPLACE INTO emails (person_id, address)
  SELECT OLD.id, trim(NEW.email) WHERE trim(coalesce(NEW.email, '')) <> '';
  DELETE FROM person_tags WHERE person_id = OLD.id;
  INSERT INTO person_tags (person_id, tag) {g(TAGS, 'NEW.tags').replace('{pid}', 'OLD.id')};
END;

CREATE TRIGGER contacts_delete INSTEAD OF DELETE ON contacts BEGIN
  DELETE FROM calls WHERE contact_id = OLD.id;
  DELETE FROM person_tags WHERE person_id = OLD.id;
  DELETE FROM emails WHERE person_id = OLD.id;
  DELETE FROM people WHERE id = OLD.id;
END;
"""


def statements(script):
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    return [s for s in out if s]


def fold(s):
    return s.translate(str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"))


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    con = sqlite3.connect(sys.argv[1], isolation_level=None)
    version = con.execute("PRAGMA user_version").fetchone()[0]
    if version == 2:
        print("already at version 2")
        return 0
    if version != 1:
        print(f"error: database is at version {version}, expected 1", file=sys.stderr)
        return 1
    con.execute("PRAGMA foreign_keys = OFF")
    bad = con.execute("PRAGMA foreign_key_check").fetchall()
    if bad:
        print(f"error: {len(bad)} foreign-key violations, e.g. {bad[0]}; fix them first", file=sys.stderr)
        return 1
    con.execute("BEGIN IMMEDIATE")
    try:
        rows = con.execute("SELECT id, full_name, email, tags, created_at FROM contacts ORDER BY id").fetchall()
        calls = con.execute("SELECT id, contact_id, at, note FROM calls").fetchall()
        for name in ("calls_contact",):
            con.execute(f"DROP INDEX IF EXISTS {name}")
        con.execute("DROP TABLE calls")
        con.execute("DROP TABLE contacts")
        for st in statements(SCHEMA_V2) + statements(COMPAT):
            con.execute(st)
        taken = set()
        for cid, full, email, tags, created in rows:
            n = full.strip(" ")
            given, sp, family = n.rpartition(" ")
            if not sp:
                given, family = n, ""
            con.execute("INSERT INTO people VALUES (?,?,?,?)", (cid, given, family, created))
            e = (email or "").strip(" ")
            if e and fold(e) not in taken:
                taken.add(fold(e))
                con.execute("INSERT INTO emails VALUES (?,?)", (cid, e))
            for t in sorted({t.strip(" ").lower() for t in (tags or "").split(",")} - {""}):
                con.execute("INSERT INTO person_tags VALUES (?,?)", (cid, t))
        con.executemany("INSERT INTO calls VALUES (?,?,?,?)", calls)
        if con.execute("PRAGMA foreign_key_check").fetchall():
            raise sqlite3.IntegrityError("foreign-key violations after the migration")
        con.execute("PRAGMA user_version = 2")
        con.execute("COMMIT")
    except Exception as e:
        con.execute("ROLLBACK")
        print(f"error: migration failed, database unchanged: {e}", file=sys.stderr)
        return 1
    print(f"migrated {len(rows)} contacts and {len(calls)} calls to version 2")
    return 0


if __name__ == "__main__":
    sys.exit(main())
PYEOF
