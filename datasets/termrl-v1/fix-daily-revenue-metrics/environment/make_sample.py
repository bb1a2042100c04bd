"""A small sample of last week's exports (seeded)."""
import os
import random
import sys
from datetime import datetime, timedelta, timezone

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = random.Random(11)
users = [f"u{i:03d}" for i in range(40)]
with open(os.path.join(out, "users.csv"), "w") as f:
    f.write("user_id,country,valid_from,valid_to\n")
    for u in users:
        if rng.random() < 0.2:
            f.write(f"{u},DE,2025-01-01,2026-03-04\n{u},AT,2026-03-04,\n")
        else:
            f.write(f"{u},{rng.choice(['DE', 'AT', 'CH', 'FR'])},2025-01-01,\n")
with open(os.path.join(out, "fx.csv"), "w") as f:
    f.write("date,currency,rate_to_eur\n")
    for day in (1, 2, 4, 5, 7):
        f.write(f"2026-03-0{day},CHF,{1.04 + day / 1000:.4f}\n")
        f.write(f"2026-03-0{day},USD,{0.91 + day / 1000:.4f}\n")
with open(os.path.join(out, "events.csv"), "w") as f:
    f.write("event_id,user_id,ts,type,amount,currency\n")
    start = datetime(2026, 3, 1, tzinfo=timezone.utc)
    for i in range(400):
        ts = start + timedelta(minutes=rng.randint(0, 7 * 1440))
        kind = rng.choices(["view", "purchase", "refund"], [8, 3, 1])[0]
        amount = "" if kind == "view" else f"{rng.uniform(5, 200):.2f}"
        cur = "" if kind == "view" else rng.choice(["EUR", "CHF", "USD"])
        line = f"e{i:05d},{rng.choice(users)},{ts.isoformat()},{kind},{amount},{cur}\n"
        f.write(line * (2 if rng.random() < 0.05 else 1))
