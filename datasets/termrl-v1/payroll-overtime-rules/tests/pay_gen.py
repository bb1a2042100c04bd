import csv
import datetime as dt
import json
import random


def gen(d, seed):
    rng = random.Random(seed)
    emps = []
    for k in range(12):
        typ = "salaried" if rng.random() < 0.2 else "hourly"
        emps.append([f"E{k:03d}", f"Worker {k}", f"{rng.uniform(15, 45):.2f}" if typ == "hourly" else "",
                     typ, f"{rng.randint(40, 120) * 1000}" if typ == "salaried" else "", rng.choice(["CA", "TX", "NY"])])
    with open(f"{d}/employees.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["emp_id", "name", "hourly_rate", "type", "annual_salary", "state"])
        w.writerows(emps)
    start = dt.date(2024, 3, 4) + dt.timedelta(days=7 * rng.randint(0, 3))
    rows = []
    for e in emps:
        for day in range(-2, 16):
            if rng.random() < 0.3:
                continue
            date = start + dt.timedelta(days=day)
            h = rng.randint(5, 22)
            m = rng.choice([0, 7, 8, 15, 22, 23, 37, 38, 52, 53])
            length = rng.choice([240, 361, 480, 555, 600, 730, 780, 845, 500])
            t_out = (h * 60 + m + length) % (24 * 60)
            row = [e[0] if rng.random() > 0.05 else f" {e[0]} ", date.isoformat(), f"{h:02d}:{m:02d}", f"{t_out // 60:02d}:{t_out % 60:02d}"]
            rows.append(row)
            if rng.random() < 0.05:
                rows.append(list(row))
    rows.append(["E999", start.isoformat(), "09:00", "17:00"])
    rng.shuffle(rows)
    with open(f"{d}/timesheets.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["emp_id", "date", "clock_in", "clock_out"])
        w.writerows(rows)
    with open(f"{d}/period.json", "w") as f:
        json.dump({"start": start.isoformat(), "end": (start + dt.timedelta(days=13)).isoformat()}, f)
