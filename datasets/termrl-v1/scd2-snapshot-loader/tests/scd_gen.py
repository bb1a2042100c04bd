import csv
import datetime as dt
import random

CITIES = ["Oslo", "Lima", "Pune", "Graz", "Kobe", "São Paulo"]


def gen_series(seed, days=8, n=30):
    rng = random.Random(seed)
    state = {}
    for k in range(n):
        state[f"C{k:03d}"] = {"name": f"Cust {k}", "city": rng.choice(CITIES), "tier": rng.choice(["gold", "silver", ""]),
                              "email": f"c{k}@ex.com"}
    start = dt.date(2024, 3, 1)
    series = []
    present = set(rng.sample(sorted(state), n - 5))
    for d in range(days):
        date = (start + dt.timedelta(days=d * rng.randint(1, 3) + d)).isoformat()
        for cid in sorted(state):
            r = rng.random()
            if r < 0.08:
                state[cid]["city"] = rng.choice(CITIES)
            elif r < 0.12:
                state[cid]["tier"] = rng.choice(["gold", "silver", "bronze", ""])
            elif r < 0.16:
                state[cid]["email"] = f"{cid.lower()}.{d}@mail.example"
            elif r < 0.18:
                state[cid]["name"] = state[cid]["name"] + " Jr"
            if rng.random() < 0.06:
                present.symmetric_difference_update({cid})
        rows = []
        for cid in sorted(present):
            v = state[cid]
            shown = rng.choice([cid, cid.lower(), f" {cid} "])
            rows.append([shown, " " + v["name"] if rng.random() < 0.1 else v["name"], v["city"], v["tier"], v["email"]])
            if rng.random() < 0.03:
                rows.insert(rng.randrange(len(rows)), [cid, "STALE NAME", "Nowhere", "gold", "old@x"])
        rng.shuffle(rows)
        series.append((date, rows))
    return series


def write(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["customer_id", "name", "city", "tier", "email"])
        w.writerows(rows)
