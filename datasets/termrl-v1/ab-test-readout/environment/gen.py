import csv, random, datetime as dt
rng = random.Random(8675309)
t0 = dt.datetime(2024, 5, 1)
assign, events, bots = [], [], []
for u in range(1, 6001):
    uid = f"u{u:05d}"
    v = "A" if rng.random() < 0.5 else "B"
    at = t0 + dt.timedelta(minutes=rng.randint(0, 20000))
    assign.append([uid, v, at])
    if rng.random() < 0.015:
        assign.append([uid, "B" if v == "A" else "A", at + dt.timedelta(minutes=rng.randint(1, 500))])
    if rng.random() < 0.01:
        bots.append(uid)
    p = 0.080 if v == "A" else 0.098
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        events.append([uid, "view", "", at + dt.timedelta(minutes=rng.randint(-300, 3000))])
    if rng.random() < 0.03:
        events.append([uid, "purchase", f"{rng.uniform(5, 80):.2f}", at - dt.timedelta(minutes=rng.randint(1, 300))])
    if rng.random() < p:
        for _ in range(rng.choice([1, 1, 1, 2])):
            events.append([uid, "purchase", f"{rng.lognormvariate(3.3, 0.6):.2f}", at + dt.timedelta(minutes=rng.randint(1, 5000))])
rng.shuffle(assign); rng.shuffle(events)
with open("/app/assignments.csv", "w", newline="") as f:
    w = csv.writer(f); w.writerow(["user_id", "variant", "assigned_at"])
    for a in assign: w.writerow([a[0], a[1], a[2].strftime("%Y-%m-%d %H:%M:%S")])
with open("/app/events.csv", "w", newline="") as f:
    w = csv.writer(f); w.writerow(["user_id", "event", "value", "ts"])
    for e in events: w.writerow([e[0], e[1], e[2], e[3].strftime("%Y-%m-%d %H:%M:%S")])
with open("/app/bots.txt", "w") as f:
    f.write("# known bot accounts, one per line\n" + "\n".join(bots) + "\n")
