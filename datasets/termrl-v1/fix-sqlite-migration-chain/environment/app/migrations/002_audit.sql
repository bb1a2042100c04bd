-- Index orders by customer and record every status change.
CREATE INDEX orders_customer ON orders (customer_id);
CREATE TABLE audit (
    id         INTEGER PRIMARY KEY,
    order_id   INTEGER NOT NULL,
    old_status TEXT,
    new_status TEXT
);
CREATE TRIGGER orders_status_audit AFTER UPDATE OF status ON orders
BEGIN
    INSERT INTO audit (order_id, old_status, new_status) VALUES (old.id, old.status, new.status);
END;
