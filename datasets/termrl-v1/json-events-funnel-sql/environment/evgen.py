"""Shop click-stream events with JSON payloads (example and tests)."""
import json
import random
import sqlite3

SKUS = ["ab-100", "AB-100", " cd-7 ", "CD-7", "ef-33", "GH-1", "ij-900"]


def item(r, priced):
    it = {"sku": r.choice(SKUS)}
    if r.random() < 0.8:
        it["qty"] = r.randint(1, 4)
    if priced:
        cents = r.choice([29, 57, 1999, 1005, 250, 99999, r.randint(1, 50000)])
        p = f"{cents // 100}.{cents % 100:02d}"
        it["price"] = r.choice([p, float(p)])
    return it


def make(path, schema, seed, n=600):
    r = random.Random(seed)
    con = sqlite3.connect(path)
    con.executescript(schema)
    for i in range(1, n + 1):
        kind = r.choice(["view", "view", "view", "cart", "cart", "purchase", "bad", "other"])
        if kind == "view":
            p = {"type": r.choice(["view", "VIEW", "View"]), "items": [item(r, False) for _ in range(r.randint(1, 3))]}
        elif kind == "cart":
            p = {"type": "cart", "items": [item(r, False) for _ in range(r.randint(1, 2))]}
        elif kind == "purchase":
            p = {"type": "purchase", "order": {"items": [item(r, True) for _ in range(r.randint(1, 3))], "coupon": r.choice([None, "X"])}}
        elif kind == "other":
            p = {"type": "search", "q": "shoes", "items": [item(r, False)]}
        text = json.dumps(p) if kind != "bad" else r.choice(['{"type": "view", "items": [', "not json", None, "", '{"type": "cart"'])
        con.execute("INSERT INTO events VALUES (?,?,?,?)", (i, r.randint(1, 60), f"2024-05-{r.randint(1, 28):02d}T10:00:00Z", text))
    con.commit()
    con.close()
