"""Subscription databases for the coverage report (example and tests)."""
import random
import sqlite3
from datetime import date, timedelta


def make(path, schema, seed, customers=40, subs=260, as_of="2024-09-15"):
    r = random.Random(seed)
    con = sqlite3.connect(path)
    con.executescript(schema)
    con.execute("INSERT INTO report_settings VALUES (?)", (as_of,))
    d0 = date(2023, 1, 1)
    sid = 0
    for c in r.sample(range(100, 999), customers):
        t = d0 + timedelta(days=r.randint(0, 300))
        for _ in range(r.randint(1, 2 * subs // customers)):
            sid += 1
            kind = r.random()
            start = t + timedelta(days=r.choice([0, 0, 1, 2, 30, -10, -40, 90]))
            length = r.choice([30, 31, 90, 365, 7, 0, 45])
            end = start + timedelta(days=length)
            if kind < 0.08:
                end_s = None                                   # still running
            elif kind < 0.12:
                end_s = (start - timedelta(days=3)).isoformat()   # entered backwards: ignored
            else:
                end_s = end.isoformat()
            con.execute("INSERT INTO subscriptions VALUES (?,?,?,?,?)", (sid, c, r.choice(["basic", "pro"]), start.isoformat(), end_s))
            t = end if r.random() < 0.5 else start + timedelta(days=r.randint(0, 200))
    con.commit()
    con.close()
