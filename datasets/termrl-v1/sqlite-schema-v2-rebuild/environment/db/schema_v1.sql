-- shop database, schema version 1 (PRAGMA user_version = 1)
CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    name TEXT,            -- "First [Middle ...] Last", sometimes a single word
    email TEXT,           -- free text: mixed case, stray spaces, empty, duplicates
    phone TEXT,
    created TEXT          -- DD/MM/YYYY
);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER REFERENCES customers(id),
    total TEXT,           -- "12.5", "12,50", "EUR 12.50", " 7 "
    status TEXT,          -- any case; "canceled" and "cancelled" both occur
    placed TEXT           -- DD/MM/YYYY HH:MM
);
CREATE INDEX orders_by_customer ON orders(customer_id);
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
    SELECT c.id AS customer_id, c.name AS name, COUNT(o.id) AS orders
    FROM customers c LEFT JOIN orders o ON o.customer_id = c.id
    GROUP BY c.id;
PRAGMA user_version = 1;
