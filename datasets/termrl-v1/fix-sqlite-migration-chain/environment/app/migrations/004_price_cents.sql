-- foreign_keys: off
-- Money as integer cents.
CREATE TABLE orders_new (
    id          INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    status      TEXT NOT NULL DEFAULT 'new'
);
INSERT INTO orders_new (id, customer_id, price_cents, status)
    SELECT id, customer_id, CAST(price * 100 AS INTEGER), status FROM orders;
DROP TABLE orders;
ALTER TABLE orders_new RENAME TO orders;
