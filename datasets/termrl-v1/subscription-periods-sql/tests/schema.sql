CREATE TABLE subscriptions (
  id          INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL,
  plan        TEXT NOT NULL,
  start_date  TEXT NOT NULL,        -- 'YYYY-MM-DD', first day covered
  end_date    TEXT                  -- 'YYYY-MM-DD', first day NOT covered; NULL = still running
);
CREATE TABLE report_settings (
  as_of TEXT NOT NULL               -- 'YYYY-MM-DD', the report's date (one row)
);
