"""A sample schema-1 database with the kinds of data seen in production (seeded)."""
import random
import sqlite3
import sys

rng = random.Random(5)
con = sqlite3.connect(sys.argv[1])
con.executescript(open("/app/db/schema_v1.sql").read())
first = ["Anna", "Jean Luc", "Mia", "Olu", "Chen", "Sofia", "Lars", "Ines"]
last = ["Berg", "van der Meer", "Okafor", "Li", "García", "Nilsen", "Rossi"]
for cid in range(1, 41):
    name = rng.choice(first) + " " + rng.choice(last) if rng.random() < 0.9 else rng.choice(last)
    email = rng.choice(["", None, f" {name.split()[0].upper()}.{cid % 7}@Example.COM ", f"user{cid}@shop.test"])
    con.execute("INSERT INTO customers VALUES (?,?,?,?,?)",
                (cid, name, email, f"+49 {rng.randint(100000, 999999)}",
                 f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/{rng.randint(2019, 2025)}"))
for oid in range(1, 121):
    cents = rng.randint(0, 50000)
    total = rng.choice([f"{cents / 100:.2f}", f"{cents // 100},{cents % 100:02d}", f"EUR {cents / 100:.2f}",
                        f" {cents // 100} "])
    con.execute("INSERT INTO orders VALUES (?,?,?,?,?)",
                (oid, rng.randint(1, 43), total, rng.choice(["NEW", "paid", "Shipped", "canceled", "cancelled"]),
                 f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/2025 {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"))
con.execute("UPDATE orders SET status = 'paid' WHERE id = 3")
con.commit()
