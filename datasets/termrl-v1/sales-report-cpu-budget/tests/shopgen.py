"""Shop databases with the awkward cases the report has to get right."""
import random
import sqlite3

SCHEMA = """
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, country TEXT, created_at TEXT);
CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT NOT NULL, category TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, placed_at TEXT NOT NULL, status TEXT);
CREATE TABLE order_items (order_id INTEGER NOT NULL, product_id INTEGER NOT NULL, qty INTEGER NOT NULL,
                          unit_price TEXT NOT NULL, discount_pct INTEGER);
CREATE TABLE refunds (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL, amount_cents INTEGER NOT NULL,
                      refunded_at TEXT NOT NULL);
"""
NAMES = ["Émile", "émile", "EMILE", "Zoë", "zoe", "Ǆemal", "ǆemal", "Ana", "ana", "Øystein", "Straße", "STRASSE",
         "Smith, John", "O'Neil", "İlker", "ılker", "Σίσυφος", "ΣΊΣΥΦΟΣ"]
CATEGORIES = ["Books", " books", "BOOKS ", "Straße", "STRASSE", "strasse", "Toys", "toys", "Garden & Patio",
              "ΚΑΦΈΣ", "καφές", None, "", "  ", "Music"]


def timestamp(rng, year0=2022, years=3):
    y = year0 + rng.randrange(years)
    m = rng.randint(1, 12)
    edge = rng.random() < 0.35
    if edge:   # near a month boundary, where the offset decides the UTC month
        d, hh = rng.choice([(1, rng.randint(0, 5)), (28, rng.randint(18, 23))])
        if d == 28:
            d = {2: 28, 4: 30, 6: 30, 9: 30, 11: 30}.get(m, 31) if rng.random() < 0.7 else 28
            if m == 2 and y % 4 == 0 and rng.random() < 0.5:
                d = 29
    else:
        d, hh = rng.randint(1, 28), rng.randint(0, 23)
    mi, s = rng.randint(0, 59), rng.randint(0, 59)
    base = f"{y:04d}-{m:02d}-{d:02d}{rng.choice(['T', ' '])}{hh:02d}:{mi:02d}:{s:02d}"
    if rng.random() < 0.2:
        base += f".{rng.randint(0, 999999):06d}"
    off = rng.random()
    if off < 0.25:
        return base
    if off < 0.4:
        return base + "Z"
    sign = rng.choice("+-")
    return base + f"{sign}{rng.randint(0, 12):02d}:{rng.choice([0, 30, 45]):02d}" + (" " if rng.random() < 0.05 else "")


def price(rng):
    r = rng.random()
    if r < 0.3:  # values whose discounted cents land on .5
        return rng.choice(["0.25", "0.75", "1.25", "2.50", "0.05", "0.15", "12.25", "3.45", "0.35"])
    if r < 0.4:
        return f"{rng.randint(0, 20)}.{rng.randint(0, 999):03d}"
    return f"{rng.randint(0, 300)}.{rng.randint(0, 99):02d}"


def build(path, rng, customers=150, orders=700, products=60, items_per_order=3, refunds=80):
    con = sqlite3.connect(path)
    con.executescript(SCHEMA)
    for cid in range(1, customers + 1):
        name = rng.choice(NAMES + [None] + [f"Cust{rng.randint(1, 999)}"] * 6)
        con.execute("INSERT INTO customers VALUES (?,?,?,?)",
                    (cid, name, rng.choice(["DE", "FR", None, "US"]), timestamp(rng, 2020, 2)))
    for pid in range(1, products + 1):
        con.execute("INSERT INTO products VALUES (?,?,?)", (pid, f"product {pid}", rng.choice(CATEGORIES)))
    # a few customers with far more orders, so that the ranking has close calls
    weights = [rng.choice([1, 1, 1, 2, 5]) for _ in range(customers)]
    cum, acc = [], 0
    for w in weights:
        acc += w
        cum.append(acc)
    ids = range(1, customers + 1)
    oids = rng.sample(range(1, orders * 5), orders)
    for oid in oids:
        r = rng.random()
        cid = rng.choices(ids, cum_weights=cum)[0] if r > 0.04 else rng.choice([None, customers + 7])
        status = rng.choices(["paid", "shipped", "cancelled", "refunded", None], [5, 5, 2, 1, 0.3])[0]
        con.execute("INSERT INTO orders VALUES (?,?,?,?)", (oid, cid, timestamp(rng), status))
        for _ in range(rng.choice([0] + [items_per_order] * 4 + [1, 2, 5])):
            pid = rng.randint(1, products) if rng.random() > 0.02 else products + 50
            con.execute("INSERT INTO order_items VALUES (?,?,?,?,?)",
                        (oid, pid, rng.randint(1, 9), price(rng), rng.choice([None, 0, 0, 5, 10, 15, 50, 25])))
    for rid in range(1, refunds + 1):
        oid = rng.choice(oids) if rng.random() > 0.05 else orders * 10 + rid
        con.execute("INSERT INTO refunds VALUES (?,?,?,?)", (rid, oid, rng.randint(1, 5000), timestamp(rng, 2022, 4)))
    con.commit()
    con.close()
    return path
