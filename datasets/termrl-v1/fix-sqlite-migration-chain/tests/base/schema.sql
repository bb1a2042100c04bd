-- The shop schema at version 5 (what every database must look like after `migrate.py`).
CREATE TABLE customers (
    id      INTEGER PRIMARY KEY,
    email   TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name    TEXT,
    created TEXT NOT NULL,
    tier    TEXT NOT NULL DEFAULT 'basic'
);
CREATE TABLE order_notes (
    id       INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    body     TEXT NOT NULL,
    author   TEXT NOT NULL DEFAULT 'system'
);
CREATE TABLE audit (
    id         INTEGER PRIMARY KEY,
    order_id   INTEGER NOT NULL,
    old_status TEXT,
    new_status TEXT
);
CREATE TABLE orders (
    id          INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    status      TEXT NOT NULL DEFAULT 'new'
);
CREATE INDEX orders_customer ON orders (customer_id);
CREATE INDEX order_notes_order ON order_notes (order_id);
CREATE TRIGGER orders_status_audit AFTER UPDATE OF status ON orders
BEGIN
    INSERT INTO audit (order_id, old_status, new_status) VALUES (old.id, old.status, new.status);
END;
PRAGMA user_version = 5;
