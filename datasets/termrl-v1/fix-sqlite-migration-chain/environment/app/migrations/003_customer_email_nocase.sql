-- foreign_keys: off
-- E-mail addresses are unique regardless of letter case; customers get a tier.
ALTER TABLE customers RENAME TO customers_old;
CREATE TABLE customers (
    id      INTEGER PRIMARY KEY,
    email   TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name    TEXT,
    created TEXT NOT NULL,
    tier    TEXT NOT NULL DEFAULT 'basic'
);
INSERT INTO customers (id, email, name, created) SELECT id, email, name, created FROM customers_old;
DROP TABLE customers_old;
