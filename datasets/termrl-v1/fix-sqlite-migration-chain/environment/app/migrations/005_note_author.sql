-- Notes remember who wrote them.
ALTER TABLE order_notes ADD COLUMN author TEXT NOT NULL DEFAULT 'system';
CREATE INDEX order_notes_order ON order_notes (order_id);
