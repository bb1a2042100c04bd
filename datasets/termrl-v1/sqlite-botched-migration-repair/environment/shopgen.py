"""Version-1 shop databases and the application's writes after the migration (example and tests)."""
import random
import sqlite3
from datetime import datetime, timedelta

OFFSETS = ["+00:00", "+01:00", "+02:00", "-05:00", "+05:30", "-03:30", "+09:00"]


def make_v1(path, schema, seed, n_products=80, n_orders=300, n_notes=200):
    r = random.Random(seed)
    con = sqlite3.connect(path)
    con.executescript(schema)
    for i in range(1, n_products + 1):
        cents = r.choice([r.randint(1, 99), r.randint(100, 99999), 29, 57, 115, 1005, 2010, 9999, 4.35 * 0 + 435, 1990])
        cents = int(cents)
        price = f"{cents // 100}.{cents % 100:02d}"
        price = r.choice([price, price.rstrip("0").rstrip(".") if "." in price else price])
        con.execute("INSERT INTO products VALUES (?,?,?,?)", (i, f"SKU-{i:04d}", price,
                    (datetime(2024, 1, 1) + timedelta(minutes=r.randint(0, 200000))).strftime("%Y-%m-%d %H:%M:%S")))
    for i in range(1, n_orders + 1):
        local = datetime(2024, 3, 1) + timedelta(seconds=r.randint(0, 90 * 86400))
        con.execute("INSERT INTO orders VALUES (?,?,?,?)", (i, r.randint(1, n_products), r.randint(1, 9),
                    local.strftime("%Y-%m-%d %H:%M:%S") + r.choice(OFFSETS)))
    noted = []
    for i in range(1, n_notes + 1):
        o = r.choice(noted) if i > n_notes - 5 else r.randint(1, n_orders)     # the last notes add to noted orders
        noted.append(o)
        con.execute("INSERT INTO order_notes VALUES (?,?,?)", (i, o, r.choice(["gift wrap", "leave at door", "call first", "fragile"]) + f" #{i}"))
    con.commit()
    con.close()


def app_activity(con, seed, applied_at, steps=150):
    """The application's writes after the migration (version-2 schema). Returns the ids of the notes it added."""
    r = random.Random(seed)
    t = datetime.strptime(applied_at, "%Y-%m-%d %H:%M:%S")
    new_notes = []
    for _ in range(steps):
        t += timedelta(seconds=r.randint(1, 600))
        ts = t.strftime("%Y-%m-%d %H:%M:%S")
        prods = [x[0] for x in con.execute("SELECT id FROM products")]
        orders = [x[0] for x in con.execute("SELECT id FROM orders")]
        k = r.randrange(7)
        if k == 0:
            con.execute("UPDATE products SET price_cents = ?, updated_at = ? WHERE id = ?", (r.randint(50, 50000), ts, r.choice(prods)))
        elif k == 1:
            con.execute("INSERT INTO products (sku, price_cents, updated_at) VALUES (?,?,?)", (f"NEW-{len(prods)}-{r.randint(0, 9999)}", r.randint(1, 9999), ts))
        elif k == 2:
            con.execute("INSERT INTO orders (product_id, qty, created_utc) VALUES (?,?,?)", (r.choice(prods), r.randint(1, 5), ts))
        elif k == 3:
            con.execute("UPDATE orders SET qty = ? WHERE id = ?", (r.randint(1, 9), r.choice(orders)))
        elif k == 4:
            con.execute("DELETE FROM orders WHERE id = ?", (r.choice(orders[:-1]),))   # never the newest: ids are not reused
        else:
            cur = con.execute("INSERT INTO order_notes (order_id, note) VALUES (?,?)", (r.choice(orders), f"later note {r.randint(0, 10 ** 6)}"))
            new_notes.append(cur.lastrowid)
    con.commit()
    return new_notes
