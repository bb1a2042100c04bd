-- What `users` must look like after the rewrite. Everything else in schema.sql stays as it is (sessions keep
-- referencing users, the trigger and the view keep working on the new table).
CREATE TABLE users (
  id         INTEGER PRIMARY KEY,
  email      TEXT NOT NULL,
  full_name  TEXT NOT NULL,
  created_at INTEGER NOT NULL,           -- unix time in seconds (from the old UTC text)
  prefs      TEXT NOT NULL DEFAULT '{}'  -- NULL becomes '{}'
);
CREATE INDEX users_email ON users(email);
