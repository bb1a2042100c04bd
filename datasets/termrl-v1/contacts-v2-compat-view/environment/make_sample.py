import random
import sqlite3
r = random.Random(5)
con = sqlite3.connect("/app/db/sample_v1.db")
con.executescript(open("/app/db/schema_v1.sql").read())
first = ["Ann", "Bo", "Carla Maria", "Dee", "Ed", "Jean-Luc", "Ünal"]
last = ["Lee", "van der Berg", "O'Neil", "Smith", ""]
for i in range(1, 201):
    name = (r.choice(first) + " " + r.choice(last)).strip()
    name = r.choice([name, " " + name, name + " ", name.replace(" ", "  ", 1)])
    user = f"user{r.randint(1, 150)}"
    email = r.choice([None, "", f"{user}@example.com", f"{user.title()}@Example.com", f" {user}@example.com "])
    tags = r.choice(["", "vip", "vip,press", " press , vip ", "VIP,,vip", "beta-tester,vip", "old customer"])
    try:
        con.execute("INSERT INTO contacts VALUES (?,?,?,?,?)", (i, name, email, tags, f"2023-0{r.randint(1, 9)}-1{r.randint(0, 9)} 08:00:00"))
    except sqlite3.IntegrityError:
        con.execute("INSERT INTO contacts VALUES (?,?,NULL,?,?)", (i, name, tags, "2023-01-01 00:00:00"))
for c in range(1, 401):
    con.execute("INSERT INTO calls VALUES (?,?,?,?)", (c, r.randint(1, 200), f"2024-01-{r.randint(10, 28)} 10:00:00", r.choice([None, "left voicemail", "ok"])))
con.commit()
