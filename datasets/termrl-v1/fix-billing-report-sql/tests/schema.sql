CREATE TABLE accounts (
  id            INTEGER PRIMARY KEY,
  name          TEXT NOT NULL,
  country       TEXT,                      -- ISO code; NULL or '' when unknown
  tz_offset_min INTEGER NOT NULL,          -- the account's UTC offset in minutes (e.g. 330 = UTC+05:30)
  referred_by   INTEGER REFERENCES accounts(id)
);
CREATE TABLE invoices (
  id           INTEGER PRIMARY KEY,
  account_id   INTEGER NOT NULL REFERENCES accounts(id),
  issued_at    TEXT NOT NULL,              -- UTC, 'YYYY-MM-DD HH:MM:SS'
  amount_cents INTEGER NOT NULL,           -- before discount
  discount_pct INTEGER,                    -- 0-100; NULL = no discount
  status       TEXT NOT NULL CHECK (status IN ('open', 'paid', 'void'))
);
CREATE TABLE payments (
  id           INTEGER PRIMARY KEY,
  invoice_id   INTEGER NOT NULL REFERENCES invoices(id),
  paid_at      TEXT NOT NULL,
  amount_cents INTEGER NOT NULL
);
