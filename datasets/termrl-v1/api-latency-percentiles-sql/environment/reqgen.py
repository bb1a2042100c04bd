"""Access logs of an HTTP API (example and tests)."""
import random
import sqlite3
from datetime import datetime, timedelta

ROUTES = ["/users/{n}", "/users/{n}/orders", "/Users/{n}/orders/", "/orders/{n}/items/{m}", "/health", "/search",
          "/v2/users/{n}", "/files/{n}a/raw", "/orders/{n}/items/"]


def make(path, schema, seed, n=1500):
    r = random.Random(seed)
    con = sqlite3.connect(path)
    con.executescript(schema)
    t0 = datetime(2024, 7, 1, 8, 0, 0)
    for i in range(1, n + 1):
        p = r.choice(ROUTES).format(n=r.choice([r.randint(1, 99999), 7, 0]), m=r.randint(1, 9))
        if r.random() < 0.3:
            p += r.choice(["?page=2", "?q=a/b", "?x=1&y=22"])
        t = t0 + timedelta(milliseconds=r.randint(0, 5 * 3600 * 1000))
        if r.random() < 0.05:
            d, st = None, None
        else:
            d = r.choice([r.randint(1, 50), r.randint(50, 400), r.randint(400, 5000), 120, 120])
            st = r.choice([200, 200, 200, 201, 404, 500, 503])
        con.execute("INSERT INTO requests VALUES (?,?,?,?,?)", (i, p, t.strftime("%Y-%m-%d %H:%M:%S.") + f"{t.microsecond // 1000:03d}", d, st))
    con.commit()
    con.close()
