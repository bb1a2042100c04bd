"""Deterministic generator of the shop database used by the index task (sample and tests)."""
import datetime
import random
import sqlite3

SCHEMA = """
CREATE TABLE customers (
  id         INTEGER PRIMARY KEY,
  email      TEXT NOT NULL,
  name       TEXT,
  region     TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE products (
  sku         TEXT PRIMARY KEY,
  title       TEXT NOT NULL,
  category    TEXT NOT NULL,
  price_cents INTEGER NOT NULL
);
CREATE TABLE orders (
  id          INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers(id),
  status      TEXT NOT NULL CHECK (status IN ('open', 'paid', 'shipped', 'cancelled')),
  total_cents INTEGER NOT NULL,
  created_at  TEXT NOT NULL,
  shipped_at  TEXT
);
CREATE TABLE order_items (
  order_id    INTEGER NOT NULL REFERENCES orders(id),
  line        INTEGER NOT NULL,
  sku         TEXT NOT NULL REFERENCES products(sku),
  qty         INTEGER NOT NULL,
  price_cents INTEGER NOT NULL,
  PRIMARY KEY (order_id, line)
) WITHOUT ROWID;
CREATE TABLE events (
  id          INTEGER PRIMARY KEY,
  customer_id INTEGER REFERENCES customers(id),
  kind        TEXT NOT NULL,
  ts          TEXT NOT NULL,
  payload     TEXT
);
"""

START = datetime.datetime(2024, 1, 1)
REGIONS = ["north", "south", "east", "west", "central", "islands"]
PREFIXES = ["KIT", "Kit", "TOOL", "GARD", "LAMP", "PIPE", "ROPE", "SEED"]
KINDS = ["login", "view", "cart", "search", "logout", "review"]


def ts(r, year=2024):
    return f"{year}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d} {r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}"


def make_db(path, seed, customers=3000, products=1500, orders=20000, events=20000):
    r = random.Random(seed)
    con = sqlite3.connect(path)
    con.executescript(SCHEMA)
    for cid in range(1, customers + 1):
        user = f"user{cid}.{r.choice(['a', 'b', 'x'])}"
        dom = r.choice(["example.com", "Example.COM", "mail.test"])
        email = r.choice([f"{user}@{dom}", f"{user.title()}@{dom}", f"{user.upper()}@{dom}"])
        con.execute("INSERT INTO customers VALUES (?,?,?,?,?)",
                    (cid, email, r.choice([None, f"Name {cid}"]), r.choice(REGIONS), ts(r, r.choice([2022, 2023]))))
    skus = set()
    while len(skus) < products:
        skus.add(f"{r.choice(PREFIXES)}-{r.randint(0, 99999):05d}")
    skus = sorted(skus)
    for sku in skus:
        con.execute("INSERT INTO products VALUES (?,?,?,?)",
                    (sku, f"Item {sku.lower()}", r.choice(["garden", "tools", "home", "light"]), r.randint(100, 90000)))
    seconds = sorted(r.sample(range(365 * 86400), orders))   # order times are unique
    for oid in range(1, orders + 1):
        st = r.choices(["open", "paid", "shipped", "cancelled"], [2, 2, 10, 1])[0]
        s = seconds[oid - 1]
        created = (START + datetime.timedelta(seconds=s)).strftime("%Y-%m-%d %H:%M:%S")
        shipped = (created[:8] + f"{min(28, int(created[8:10]) + 2):02d}" + created[10:]) if st == "shipped" else None
        if st == "paid" and r.random() < 0.2:
            shipped = created
        con.execute("INSERT INTO orders VALUES (?,?,?,?,?,?)",
                    (oid, r.randint(1, customers), st, r.randint(100, 500000), created, shipped))
        for line in range(1, r.randint(1, 4) + 1):
            con.execute("INSERT INTO order_items VALUES (?,?,?,?,?)",
                        (oid, line, r.choice(skus), r.randint(1, 5), r.randint(100, 90000)))
    for eid in range(1, events + 1):
        t = ts(r)
        if r.random() < 0.3:
            t = t.replace(" ", "T") + r.choice(["", "Z", ".250"])
        con.execute("INSERT INTO events VALUES (?,?,?,?,?)",
                    (eid, r.choice([None, r.randint(1, customers)]), r.choice(KINDS), t, r.choice([None, "{}"])))
    con.commit()
    con.close()
    return skus
