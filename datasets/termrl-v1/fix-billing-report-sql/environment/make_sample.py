import random
import sqlite3
r = random.Random(77)
con = sqlite3.connect("/app/data/billing.db")
con.executescript(open("/app/report/schema.sql").read())
offs = [-480, -300, -210, 0, 60, 330, 345, 540]
for a in range(1, 41):
    con.execute("INSERT INTO accounts VALUES (?,?,?,?,?)", (a, f"Account {a}", r.choice(["DE", "IN", "US", "NP", None, ""]),
                r.choice(offs), r.choice([None, None, r.randint(1, 40)])))
for i in range(1, 301):
    day = r.randint(1, 28)
    con.execute("INSERT INTO invoices VALUES (?,?,?,?,?,?)", (i, r.randint(1, 40), f"2024-03-{day:02d} {r.randint(0, 23):02d}:{r.choice([0, 15, 45]):02d}:00",
                r.randint(100, 90000), r.choice([None, None, 5, 10, 15, 33]), r.choice(["open", "paid", "paid", "void"])))
    for _ in range(r.randint(0, 2)):
        con.execute("INSERT INTO payments (invoice_id, paid_at, amount_cents) VALUES (?,?,?)", (i, f"2024-04-{day:02d} 12:00:00", r.randint(100, 40000)))
con.commit()
