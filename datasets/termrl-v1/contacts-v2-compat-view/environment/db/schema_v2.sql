-- Version 2 (PRAGMA user_version = 2): the new model. The compatibility view `contacts` and its triggers
-- (see the task) come on top of these tables.
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
PRAGMA user_version = 2;
