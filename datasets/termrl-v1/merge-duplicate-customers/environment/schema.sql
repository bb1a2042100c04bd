CREATE TABLE customers (
    id         INTEGER PRIMARY KEY,
    email      TEXT,
    name       TEXT,
    phone      TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE addresses (
    id          INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id),
    label       TEXT NOT NULL,
    line        TEXT NOT NULL,
    UNIQUE (customer_id, label)
);
CREATE TABLE orders (
    id          INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id),
    total_cents INTEGER NOT NULL
);
CREATE TABLE referrals (
    referrer_id INTEGER NOT NULL REFERENCES customers (id),
    referee_id  INTEGER NOT NULL REFERENCES customers (id),
    PRIMARY KEY (referrer_id, referee_id),
    CHECK (referrer_id <> referee_id)
) WITHOUT ROWID;
