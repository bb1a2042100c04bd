CREATE TABLE products (
  id         INTEGER PRIMARY KEY,
  sku        TEXT NOT NULL UNIQUE,
  price      TEXT NOT NULL,               -- decimal text, at most two decimals: '12.99', '7', '0.5'
  updated_at TEXT NOT NULL                -- UTC 'YYYY-MM-DD HH:MM:SS', set on every change
);
CREATE TABLE orders (
  id         INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products(id),
  qty        INTEGER NOT NULL,
  created_at TEXT NOT NULL                -- the shop's local time with its UTC offset: 'YYYY-MM-DD HH:MM:SS+HH:MM'
);
CREATE TABLE order_notes (
  id       INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  note     TEXT NOT NULL
);
PRAGMA user_version = 1;
