CREATE TABLE requests (
  id          INTEGER PRIMARY KEY,
  path        TEXT NOT NULL,        -- as the client sent it, e.g. '/Users/42/orders/?page=2'
  started_at  TEXT NOT NULL,        -- UTC 'YYYY-MM-DD HH:MM:SS.SSS'
  duration_ms INTEGER,              -- NULL when the request timed out
  status      INTEGER               -- HTTP status; NULL when it timed out
);
