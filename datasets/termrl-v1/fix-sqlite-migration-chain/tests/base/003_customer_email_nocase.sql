-- foreign_keys: off
-- E-mail addresses are unique regardless of letter case; customers get a tier.
CREATE TABLE customers_new (
    id      INTEGER PRIMARY KEY,
    email   TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name    TEXT,
    created TEXT NOT NULL,
    tier    TEXT NOT NULL DEFAULT 'basic'
);
INSERT INTO customers_new (id, email, name, created) SELECT id, email, name, created FROM customers;
DROP TABLE customers;
ALTER TABLE customers_new RENAME TO customers;
