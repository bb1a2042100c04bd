CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers(id),
    total_cents INTEGER NOT NULL,
    updated_at TEXT
);
CREATE TRIGGER orders_touch AFTER UPDATE OF total_cents ON orders
BEGIN
    UPDATE orders SET updated_at = 'changed; see audit' WHERE id = NEW.id;
END;
