import random
import sqlite3
r = random.Random(8)
con = sqlite3.connect("/app/audit/sample.db")
con.executescript(open("/app/audit/schema.sql").read())
for i in range(1, 31):
    con.execute("INSERT INTO accounts VALUES (?,?,?,?,?)", (i, f"a{i}@shop.test", round(r.uniform(0, 500), 2),
                r.choice([None, bytes([r.randint(0, 255) for _ in range(4)])]), r.choice([None, 7, "seven", 1.5])))
for i in range(1, 81):
    con.execute("INSERT INTO orders VALUES (?,?,?,?,?)", (i, r.randint(1, 30), r.randint(1, 9999), r.choice(["new", "paid", None]), r.choice([None, 1, "1"])))
con.commit()
