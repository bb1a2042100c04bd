CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL
);
INSERT INTO customers (email, name) VALUES ('ada@example.org', 'Ada; the first');
