import random
import sqlite3
r = random.Random(3)
con = sqlite3.connect("/app/ledger/books.db")
con.executescript(open("/app/ledger/schema.sql").read())
kinds = ["asset", "liability", "income", "expense", "equity"]
for i in range(1, 13):
    con.execute("INSERT INTO accounts VALUES (?,?,?)", (i, f"acct-{i}", kinds[i % 5]))
eid = 0
for t in range(1, 301):
    n = r.randint(2, 4)
    amts = [r.randint(-50000, 50000) or 1 for _ in range(n - 1)]
    amts.append(-sum(amts))
    if amts[-1] == 0:
        amts[-1], amts[0] = 5, amts[0] - 5
    for a in amts:
        eid += 1
        con.execute("INSERT INTO entries VALUES (?,?,?,?,?)", (eid, t, r.randint(1, 12), a, r.choice([None, "invoice", "refund"])))
con.commit()
