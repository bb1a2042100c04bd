CREATE TABLE accounts (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('asset', 'liability', 'income', 'expense', 'equity'))
);
-- Double-entry bookkeeping: the entries of one transaction (same txn_id) must sum to zero.
CREATE TABLE entries (
  id           INTEGER PRIMARY KEY,
  txn_id       INTEGER NOT NULL,
  account_id   INTEGER NOT NULL REFERENCES accounts(id),
  amount_cents INTEGER NOT NULL,
  memo         TEXT
);
CREATE INDEX entries_txn ON entries(txn_id);
