-- The first schema of the shop database.
CREATE TABLE customers (
    id      INTEGER PRIMARY KEY,
    email   TEXT NOT NULL UNIQUE,
    name    TEXT,
    created TEXT NOT NULL
);
CREATE TABLE orders (
    id          INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    price       REAL NOT NULL,
    status      TEXT NOT NULL DEFAULT 'new'
);
CREATE TABLE order_notes (
    id       INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    body     TEXT NOT NULL
);
