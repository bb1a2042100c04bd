import random
import sqlite3

r = random.Random(3)
con = sqlite3.connect("/app/crm.db")
con.executescript(open("/app/schema.sql").read())
bases = [f"user{i}@example.test" for i in range(25)]
for cid in range(1, 61):
    b = r.choice(bases)
    con.execute("INSERT INTO customers VALUES (?,?,?,?,?)",
                (cid, r.choice([b, b.upper(), f" {b}", None]), r.choice([None, "Ann", "Bo Lee"]),
                 r.choice([None, "555-0100"]), f"2023-0{r.randint(1, 9)}-1{r.randint(0, 9)} 09:00:00"))
for aid in range(1, 81):
    con.execute("INSERT OR IGNORE INTO addresses VALUES (?,?,?,?)", (aid, r.randint(1, 60), r.choice(["home", "work"]), f"{aid} Elm St"))
for oid in range(1, 150):
    con.execute("INSERT INTO orders VALUES (?,?,?)", (oid, r.randint(1, 60), r.randint(100, 9999)))
for _ in range(40):
    a, b = r.sample(range(1, 61), 2)
    con.execute("INSERT OR IGNORE INTO referrals VALUES (?,?)", (a, b))
con.commit()
