import csv, random, datetime as dt
rng = random.Random(31415)
rows = []
for k in range(1, 421):
    arm = rng.choice(["control", "treatment"])
    enrolled = dt.date(2019, 1, 1) + dt.timedelta(days=rng.randint(0, 700))
    scale = 420 if arm == "control" else 610
    t_event = int(rng.expovariate(1 / scale)) + 1
    t_cens = rng.randint(60, 1400)
    if t_event <= t_cens:
        status, last = "dead", enrolled + dt.timedelta(days=t_event)
    else:
        status, last = rng.choice(["alive", "alive", "lost"]), enrolled + dt.timedelta(days=t_cens)
    r = rng.random()
    last_s = last.isoformat()
    if r < 0.015:
        last_s = ""
    elif r < 0.025:
        last_s = (enrolled - dt.timedelta(days=rng.randint(1, 30))).isoformat()
    rows.append([f"P{k:04d}", arm, enrolled.isoformat(), last_s, status])
with open("/app/trial.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["patient_id", "arm", "enrolled", "last_date", "status"])
    w.writerows(rows)
