"""Store sales around time-zone transitions (example and tests)."""
import random
import sqlite3
from datetime import datetime, timedelta

# zone -> [(from_utc, offset_min)]; transitions are UTC instants
ZONES = {
    "Europe/Berlin": [("1970-01-01 00:00:00", 60), ("2024-03-31 01:00:00", 120), ("2024-10-27 01:00:00", 60)],
    "America/St_Johns": [("1970-01-01 00:00:00", -210), ("2024-03-10 05:30:00", -150), ("2024-11-03 04:30:00", -210)],
    "Australia/Adelaide": [("1970-01-01 00:00:00", 630), ("2024-04-06 16:30:00", 570), ("2024-10-05 16:30:00", 630)],
    "Test/Midnight": [("1970-01-01 00:00:00", -240), ("2024-03-17 04:00:00", -180), ("2024-11-10 03:00:00", -240)],
    "Test/MinusHalf": [("1970-01-01 00:00:00", -30)],
    "Etc/UTC": [("1970-01-01 00:00:00", 0)],
}


def make(path, schema, seed, n_sales=900):
    r = random.Random(seed)
    con = sqlite3.connect(path)
    con.executescript(schema)
    for z, rules in ZONES.items():
        con.executemany("INSERT INTO tz_rules VALUES (?,?,?)", [(z, f, o) for f, o in rules])
    zones = list(ZONES)
    stores = []
    for sid in range(1, 9):
        z = zones[(sid - 1) % len(zones)]
        con.execute("INSERT INTO stores VALUES (?,?,?)", (sid, f"Store {sid}", z))
        stores.append((sid, z))
    for k in range(1, n_sales + 1):
        sid, z = r.choice(stores)
        if r.random() < 0.6 and len(ZONES[z]) > 1:
            base = datetime.strptime(r.choice(ZONES[z][1:])[0], "%Y-%m-%d %H:%M:%S")
            t = base + timedelta(seconds=r.randint(-3 * 3600, 3 * 3600))     # near a transition
        else:
            t = datetime(2024, 1, 1) + timedelta(seconds=r.randint(0, 365 * 86400))
        con.execute("INSERT INTO sales VALUES (?,?,?,?,?)", (k, sid, t.strftime("%Y-%m-%dT%H:%M:%SZ"), r.randint(1, 50000), int(r.random() < 0.1)))
    con.commit()
    con.close()
