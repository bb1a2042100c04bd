-- The live schema.
CREATE TABLE users (
  id         INTEGER PRIMARY KEY,
  email      TEXT NOT NULL,
  full_name  TEXT NOT NULL,
  created_at TEXT NOT NULL,              -- UTC 'YYYY-MM-DD HH:MM:SS'
  prefs      TEXT                        -- JSON text or NULL
);
CREATE TABLE sessions (
  id      INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token   TEXT NOT NULL
);
CREATE TABLE email_changes (
  id        INTEGER PRIMARY KEY,
  user_id   INTEGER NOT NULL,
  old_email TEXT,
  new_email TEXT
);
CREATE TRIGGER users_email_changed AFTER UPDATE OF email ON users BEGIN
  INSERT INTO email_changes (user_id, old_email, new_email) VALUES (OLD.id, OLD.email, NEW.email);
END;
CREATE VIEW active_users AS
  SELECT u.id, u.email, count(s.id) AS sessions FROM users u JOIN sessions s ON s.user_id = u.id GROUP BY u.id;
