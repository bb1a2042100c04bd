import csv, random, datetime as dt
rng = random.Random(77)
products = {"P-100": 3.49, "P-101": 12.00, "P-102": 0.99, "P-103": 45.50, "P-104": 7.25, "P-105": 19.99, "P-106": 2.10, "P-107": 120.00}
stores = ["ALB", "BRN", "CWL", "DRM"]
rows = []
oid = 5000
for _ in range(1400):
    oid += 1
    store = rng.choice(stores)
    day = dt.date(2023, 1, 1) + dt.timedelta(days=rng.randint(0, 364))
    for p in rng.sample(sorted(products), rng.choice([1, 1, 1, 2, 2, 3, 4])):
        q = rng.choice([1, 1, 2, 3, 5, 10]) if products[p] < 10 else rng.choice([1, 1, 2])
        rows.append([oid, day.isoformat(), store, p, q, f"{products[p]:.2f}"])
    if rng.random() < 0.04:
        r = rows[-1]
        rows.append([oid, (day + dt.timedelta(days=rng.randint(1, 20))).isoformat(), store, r[3], -r[4], r[5]])
rng.shuffle(rows)
with open("/app/transactions.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["order_id", "date", "store", "product", "quantity", "unit_price"])
    w.writerows(rows)
