CREATE TABLE users (
  id         INTEGER PRIMARY KEY,
  email      TEXT NOT NULL UNIQUE,
  name       TEXT,
  phone      TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE orders (
  id               INTEGER PRIMARY KEY,
  user_id          INTEGER NOT NULL REFERENCES users(id),
  total_cents      INTEGER NOT NULL,
  shipping_address TEXT,
  created_at       TEXT NOT NULL
);
CREATE INDEX orders_user ON orders(user_id);
CREATE TABLE messages (
  id      INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  body    TEXT NOT NULL
);
CREATE TABLE audit (
  id     INTEGER PRIMARY KEY,
  at     TEXT NOT NULL,
  detail TEXT NOT NULL          -- JSON object written by the application
);
CREATE TABLE users_history (
  id         INTEGER PRIMARY KEY,
  user_id    INTEGER NOT NULL,
  email      TEXT,
  name       TEXT,
  phone      TEXT,
  changed_at TEXT NOT NULL
);
CREATE TRIGGER users_keep_history AFTER UPDATE ON users BEGIN
  INSERT INTO users_history (user_id, email, name, phone, changed_at)
  VALUES (OLD.id, OLD.email, OLD.name, OLD.phone, datetime('now'));
END;
CREATE TABLE messages_archive (
  id          INTEGER PRIMARY KEY,
  user_id     INTEGER NOT NULL,
  body        TEXT NOT NULL,
  archived_at TEXT NOT NULL
);
CREATE TRIGGER messages_keep_deleted AFTER DELETE ON messages BEGIN
  INSERT INTO messages_archive (id, user_id, body, archived_at) VALUES (OLD.id, OLD.user_id, OLD.body, datetime('now'));
END;
