import random
import sqlite3

rng = random.Random(5)
con = sqlite3.connect("/app/data/shop_v2.db")
for f in ("001_initial.sql", "002_audit.sql"):
    con.executescript(open(f"/app/app/migrations/{f}").read())
con.execute("PRAGMA user_version = 2")
for cid in range(1, 51):
    con.execute("INSERT INTO customers VALUES (?,?,?,?)",
                (cid, f"user{cid}@Example.test", rng.choice([None, "Ann", "Bo Lee"]), f"2021-0{1 + cid % 9}-15"))
for oid in range(1, 201):
    con.execute("INSERT INTO orders VALUES (?,?,?,?)", (oid, rng.randint(1, 50), rng.choice([19.99, 0.29, 4.35, 12.0, 7.5]), "new"))
    for _ in range(rng.randint(0, 2)):
        con.execute("INSERT INTO order_notes (order_id, body) VALUES (?, ?)", (oid, rng.choice(["gift", "call first"])))
for oid in range(1, 201, 7):
    con.execute("UPDATE orders SET status = 'paid' WHERE id = ?", (oid,))
con.commit()
