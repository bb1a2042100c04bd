CREATE TABLE tz_rules (
  zone       TEXT NOT NULL,
  from_utc   TEXT NOT NULL,        -- 'YYYY-MM-DD HH:MM:SS' (UTC): this offset is in effect from this instant on
  offset_min INTEGER NOT NULL,     -- minutes to add to UTC to get local time
  PRIMARY KEY (zone, from_utc)
);
CREATE TABLE stores (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  zone TEXT NOT NULL               -- every zone has a rule from '1970-01-01 00:00:00'
);
CREATE TABLE sales (
  id           INTEGER PRIMARY KEY,
  store_id     INTEGER NOT NULL REFERENCES stores(id),
  sold_at      TEXT NOT NULL,      -- UTC, ISO 8601: 'YYYY-MM-DDTHH:MM:SSZ'
  amount_cents INTEGER NOT NULL,
  refunded     INTEGER NOT NULL DEFAULT 0
);
