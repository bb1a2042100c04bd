CREATE TABLE events (
  id      INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL,
  ts      TEXT NOT NULL,     -- UTC 'YYYY-MM-DDTHH:MM:SSZ'
  payload TEXT               -- JSON from the web client; not always valid
);
