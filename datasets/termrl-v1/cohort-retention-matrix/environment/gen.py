import csv, random, datetime as dt
rng = random.Random(606)
users, acts = [], []
for u in range(1, 1801):
    sd = dt.date(2023, 1, 1) + dt.timedelta(days=rng.randint(0, 300))
    users.append([f"U{u:05d}", sd.isoformat()])
    stick = rng.random()
    d = sd
    while d < dt.date(2023, 11, 15):
        if rng.random() < 0.5 + 0.45 * stick:
            acts.append([f"U{u:05d}", d.isoformat()])
        d += dt.timedelta(days=rng.randint(1, 12) + int(30 * (1 - stick) * rng.random()))
        if rng.random() < 0.04 * (1 - stick):
            break
    if rng.random() < 0.03:
        acts.append([f"U{u:05d}", (sd - dt.timedelta(days=rng.randint(1, 40))).isoformat()])
for _ in range(50):
    acts.append([f"U{rng.randint(2000, 2100):05d}", "2023-05-05"])
rng.shuffle(acts)
with open("/app/users.csv", "w", newline="") as f:
    w = csv.writer(f); w.writerow(["user_id", "signup_date"]); w.writerows(users)
with open("/app/activity.csv", "w", newline="") as f:
    w = csv.writer(f); w.writerow(["user_id", "date"]); w.writerows(acts)
