-- shop database, schema version 2 (PRAGMA user_version = 2): the target of the migration
CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT UNIQUE COLLATE NOCASE,
    phone TEXT,
    created_at TEXT NOT NULL CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]')
);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    total_cents INTEGER NOT NULL CHECK (total_cents >= 0),
    status TEXT NOT NULL CHECK (status IN ('new', 'paid', 'shipped', 'cancelled')),
    placed_at TEXT NOT NULL   -- YYYY-MM-DDTHH:MM
);
CREATE INDEX orders_by_customer ON orders(customer_id);
CREATE INDEX orders_by_status ON orders(status);
CREATE TABLE orphan_orders (
    id INTEGER PRIMARY KEY,   -- the order's id
    customer_id INTEGER,
    total_cents INTEGER NOT NULL,
    status TEXT NOT NULL,
    placed_at TEXT NOT NULL
);
CREATE TABLE audit (
    id INTEGER PRIMARY KEY,
    order_id INTEGER,
    old_status TEXT,
    new_status TEXT
);
CREATE TRIGGER orders_status_audit AFTER UPDATE OF status ON orders
BEGIN
    INSERT INTO audit (order_id, old_status, new_status) VALUES (OLD.id, OLD.status, NEW.status);
END;
CREATE VIEW customer_spend AS
    SELECT c.id AS customer_id, c.first_name || ' ' || c.last_name AS name, COUNT(o.id) AS orders,
           COALESCE(SUM(CASE WHEN o.status <> 'cancelled' THEN o.total_cents END), 0) AS spent_cents
    FROM customers c LEFT JOIN orders o ON o.customer_id = c.id
    GROUP BY c.id;
PRAGMA user_version = 2;
