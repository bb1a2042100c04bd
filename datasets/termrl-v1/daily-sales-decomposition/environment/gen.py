import csv, math, random, datetime as dt
rng = random.Random(7070)
start = dt.date(2022, 1, 3)
rows = []
for i in range(600):
    d = start + dt.timedelta(days=i)
    v = 200 + 0.15 * i + [12, 5, 0, -3, 8, 30, 25][d.weekday()] + rng.gauss(0, 4)
    if rng.random() < 0.01:
        v += rng.choice([-1, 1]) * rng.uniform(40, 80)
    if rng.random() < 0.04 and 5 < i < 595:
        continue
    rows.append([d.isoformat(), f"{v:.2f}"])
rng.shuffle(rows)
with open("/app/sales.csv", "w", newline="") as f:
    w = csv.writer(f); w.writerow(["date", "sales"]); w.writerows(rows)
