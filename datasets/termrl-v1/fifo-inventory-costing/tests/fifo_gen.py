import csv
import datetime as dt
import random


def gen(path, seed, n=400):
    rng = random.Random(seed)
    skus = [f"SKU{k:02d}" for k in range(rng.randint(3, 8))]
    ids = rng.sample(range(1, 100000), n)
    rows = []
    for i in ids:
        d = dt.date(2024, 1, 1) + dt.timedelta(days=rng.randint(0, 150))
        sku = rng.choice(skus)
        r = rng.random()
        if r < 0.4:
            rows.append([i, d.isoformat(), sku, "BUY", rng.randint(1, 50), f"{rng.uniform(1, 40):.2f}"])
        elif r < 0.88:
            rows.append([i, d.isoformat(), sku, "SELL", rng.randint(1, 30), f"{rng.uniform(5, 80):.2f}"])
        else:
            rows.append([i, d.isoformat(), sku, "ADJUST", rng.choice([-3, -2, -1, 1, 2, 5]), ""])
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["txn_id", "date", "sku", "type", "qty", "unit_price"])
        w.writerows(rows)
