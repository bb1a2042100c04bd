import random
import sqlite3
import sys

rng = random.Random(7)
con = sqlite3.connect(sys.argv[1])
con.execute("PRAGMA page_size = 1024")
con.executescript("""
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, balance REAL, photo BLOB);
CREATE TABLE "audit log" (at TEXT, "event type" TEXT, detail);
CREATE TABLE settings (section TEXT, key TEXT, value, PRIMARY KEY (section, key)) WITHOUT ROWID;
CREATE INDEX customers_email ON customers (email);
CREATE VIEW rich AS SELECT name FROM customers WHERE balance > 1000;
""")
for i in range(1, 400):
    name = "".join(rng.choice("abcdefghij") for _ in range(rng.randint(3, 12))).title()
    con.execute("INSERT INTO customers (name, email, balance, photo) VALUES (?,?,?,?)",
                (name, f"{name.lower()}{i}@example.test" if i % 5 else None, round(rng.uniform(-50, 5000), 2),
                 bytes(rng.randrange(256) for _ in range(rng.choice([0, 16, 3000])))))
for i in range(200):
    con.execute('INSERT INTO "audit log" VALUES (?,?,?)',
                (f"2024-05-{1 + i % 28:02d}T10:{i % 60:02d}", rng.choice(["login", "logout", "export"]),
                 rng.choice([None, i, i / 4, "x" * rng.randint(0, 2500)])))
for s in ("mail", "ui", "backup"):
    for k in range(30):
        con.execute("INSERT INTO settings VALUES (?,?,?)", (s, f"key{k:03d}", rng.choice([k, str(k), k * 1.5])))
con.execute("ALTER TABLE customers ADD COLUMN tier INTEGER DEFAULT 1")
con.execute("DELETE FROM customers WHERE id % 9 = 0")
con.commit()
