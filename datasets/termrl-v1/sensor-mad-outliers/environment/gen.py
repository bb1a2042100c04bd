import csv, random
rng = random.Random(2718)
rows = []
for s in ["TMP-01", "TMP-02", "HUM-07", "PRS-11", "FLAT-0"]:
    base = {"TMP": 21.0, "HUM": 45.0, "PRS": 1013.0, "FLA": 5.0}[s[:3]]
    for k in range(rng.randint(80, 140)):
        if s == "FLAT-0":
            v = 5.0 if rng.random() < 0.8 else rng.choice([5.5, 4.0, 12.0])
        else:
            v = rng.gauss(base, base * 0.02)
            if rng.random() < 0.05:
                v += rng.choice([-1, 1]) * base * rng.uniform(0.1, 0.4)
        rows.append([s, f"2024-06-01T{k // 60:02d}:{k % 60:02d}:00", f"{v:.3f}" if rng.random() > 0.02 else ""])
rng.shuffle(rows)
with open("/app/readings.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["sensor", "ts", "value"])
    w.writerows(rows)
