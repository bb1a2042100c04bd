-- Version 1 (PRAGMA user_version = 1): what the legacy application reads and writes.
CREATE TABLE contacts (
  id         INTEGER PRIMARY KEY,
  full_name  TEXT NOT NULL,
  email      TEXT UNIQUE,
  tags       TEXT NOT NULL DEFAULT '',            -- comma-separated, e.g. 'vip,press'
  created_at TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE calls (
  id         INTEGER PRIMARY KEY,
  contact_id INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  at         TEXT NOT NULL,
  note       TEXT
);
CREATE INDEX calls_contact ON calls(contact_id);
PRAGMA user_version = 1;
