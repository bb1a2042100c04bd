import random
import sqlite3
r = random.Random(17)
con = sqlite3.connect("/app/osc/app.db")
con.executescript(open("/app/osc/schema.sql").read())
for i in range(1, 2001):
    con.execute("INSERT INTO users VALUES (?,?,?,?,?)", (i, f"u{i}@ex.test", f"User {i}", f"2023-{r.randint(1, 12):02d}-{r.randint(1, 28):02d} {r.randint(0, 23):02d}:{r.randint(0, 59):02d}:00",
                r.choice([None, '{"theme": "dark"}', "{}"])))
for i in range(1, 3001):
    con.execute("INSERT INTO sessions VALUES (?,?,?)", (i, r.randint(1, 2000), f"tok{i}"))
con.commit()
