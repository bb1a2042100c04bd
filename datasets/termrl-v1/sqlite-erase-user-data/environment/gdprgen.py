"""Shop databases in WAL mode with personal data spread over several tables (example and tests)."""
import json
import random
import sqlite3


def make(path, schema, seed, users=80):
    r = random.Random(seed)
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode = WAL")
    con.executescript(schema)
    people = []
    for i in range(1, users + 1):
        tag = f"{r.getrandbits(40):010x}"
        email = f"p{tag}@{r.choice(['mail.test', 'Example.org'])}"
        people.append((i, email, f"Name {tag}", f"+49-{r.randint(10 ** 8, 10 ** 9)}"))
        con.execute("INSERT INTO users VALUES (?,?,?,?,?)", (i, email, people[-1][2], people[-1][3], "2024-01-01 00:00:00"))
    oid = mid = aid = 0
    for i, email, name, phone in people:
        for _ in range(r.randint(0, 4)):
            oid += 1
            con.execute("INSERT INTO orders VALUES (?,?,?,?,?)", (oid, i, r.randint(100, 90000), f"{r.randint(1, 99)} Street {email[:8]}-{oid}", "2024-02-01 00:00:00"))
        for _ in range(r.randint(0, 5)):
            mid += 1
            con.execute("INSERT INTO messages VALUES (?,?,?)", (mid, i, f"hello, this is {name}, call me at {phone} (msg {mid}) " + "x" * r.randint(0, 300)))
        for k in range(r.randint(1, 3)):
            aid += 1
            e = email.upper() if k == 0 else r.choice([email, email.lower()])
            d = r.choice([{"action": "login", "email": e}, {"action": "update", "changes": {"old_email": e, "field": "email"}},
                          {"action": "note", "text": f"user {e} asked for a refund"}])
            con.execute("INSERT INTO audit VALUES (?,?,?)", (aid, "2024-03-01 00:00:00", json.dumps(d)))
    con.commit()
    # history: some users changed their phone, some messages were deleted (the triggers keep copies)
    for i, email, name, phone in people:
        if r.random() < 0.4:
            con.execute("UPDATE users SET phone = ? WHERE id = ?", (phone, i))
    con.execute("DELETE FROM messages WHERE id % 7 = 0")
    con.execute("UPDATE messages SET body = body || ' (edited)' WHERE id % 5 = 0")
    con.commit()
    con.close()
    return people
