CREATE TABLE accounts (
  id      INTEGER PRIMARY KEY,
  email   TEXT NOT NULL UNIQUE,
  balance REAL NOT NULL DEFAULT 0,        -- at most two decimals
  avatar  BLOB,
  note                                     -- no declared type: holds integers, text, ... as given
);
CREATE TABLE orders (
  id         INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  amount     INTEGER NOT NULL,
  status     TEXT,
  meta
);
CREATE TABLE audit_log (
  seq     INTEGER PRIMARY KEY AUTOINCREMENT,
  tbl     TEXT NOT NULL,
  op      TEXT NOT NULL CHECK (op IN ('I', 'U', 'D')),
  pk      INTEGER NOT NULL,
  changes TEXT NOT NULL
);
