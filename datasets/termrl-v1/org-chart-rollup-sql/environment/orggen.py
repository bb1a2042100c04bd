"""Org charts with deep trees, orphans, manager loops and employees stuck below loops (example and tests)."""
import random
import sqlite3


def make(path, schema, seed, n=300):
    r = random.Random(seed)
    con = sqlite3.connect(path)
    con.executescript(schema)
    ids = r.sample(range(1, 20 * n), n)
    rows = {}
    for k, i in enumerate(ids):
        if k < 3:
            m = None                                           # tops
        elif r.random() < 0.03:
            m = 20 * n + r.randint(1, 99)                      # manager who is not in the table: a top too
        else:
            m = r.choice(ids[:k])                              # a manager seen before: a tree
        rows[i] = [f"{r.choice(['Ana', 'Bo', 'Cy', 'Dee', 'Eli'])} {i}", m, r.randint(3000000, 15000000)]
    for _ in range(2):                                         # loops: a small ring, plus people below it
        ring = r.sample(ids[3:], r.randint(1, 4))
        for a, b in zip(ring, ring[1:] + ring[:1]):
            rows[a][1] = b
    con.executemany("INSERT INTO employees VALUES (?,?,?,?)", [(i, *v) for i, v in rows.items()])
    con.commit()
    con.close()
