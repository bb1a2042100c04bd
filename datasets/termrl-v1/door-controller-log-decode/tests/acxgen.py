"""Access-controller exports (ACX2) and what the vendor's viewer printed for them (test side only).
The generator keeps the true events, so the expected CSV comes from the truth, not from a second decoder."""
import csv
import io
import random
from datetime import datetime, timedelta, timezone

EPOCH = datetime(2000, 1, 1)
DOORS = ["Main Entrance", "Lab 3", "Server Room", "Dock, North", 'Vault "B"', "Roof Hatch", "Café",
         "Stair C\\2", "Garage", "Lobby Turnstile 1", "Lobby Turnstile 2", "Archive"]
NAMES = ["Anna Berg", "Jonas Ortiz", "Mei Chen", "Søren Lund", "Zoë Martin", 'Robert "Bob" Hale', "Ömer Yıldız",
         "Li Wei", "Chloé Dubois", "Kemal Aksoy", "O'Brien, Pat", "Back\\slash Jr"]
REASONS = {1: "badge expired", 2: "wrong zone", 3: "PIN failed", 4: "unknown badge", 5: "outside schedule"}
HEADER = ["utc_time", "door", "badge", "holder", "event", "detail"]


def quote(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate(rng, n_events=300, site="HQ"):
    """-> (ACX text, expected CSV text)."""
    offset = rng.choice([60, 120, -300, -240, 330, 0, 540])
    lines = [f"ACX2 site={site} utc={offset:+d}"]
    if rng.random() < 0.7:
        lines.append(f"; exported by acxtool 2.{rng.randint(0, 9)} - {rng.randint(1, 4)} controller(s)")
    local = datetime(rng.randint(2019, 2025), rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23),
                     rng.randint(0, 59), rng.randint(0, 59))
    badges = {}
    pool = [rng.randrange(1, 2 ** 32) for _ in range(rng.randint(6, 14))]
    strangers = [rng.randrange(1, 2 ** 32) for _ in range(3)]
    for b in rng.sample(pool, len(pool) - 2):   # most badges are enrolled up front; two come later or never
        badges[b] = rng.choice(NAMES)
        lines.append(f"E {b:08X} {quote(badges[b])}")
    doors = rng.sample(DOORS, rng.randint(4, len(DOORS)))
    door_index = {}
    last_badge = None
    rows = []
    lines.append(f"@{int((local - EPOCH).total_seconds()):X}")
    since_sync = 0
    for _ in range(n_events):
        r = rng.random()
        if r < 0.03:   # the offset changes (daylight saving, or the controller was re-configured)
            offset += rng.choice([60, -60])
            lines.append(f"Z{offset:+d}")
        elif r < 0.06:
            b = rng.choice(pool)
            badges[b] = rng.choice(NAMES)
            lines.append(f"E {b:08X} {quote(badges[b])}")
        elif r < 0.08:
            lines.append(rng.choice(["; controller 2 reconnected", "; buffer flushed", ";"]))
        delta = rng.choice([0, 0, 1, 2, 5, 13, 40, 61, 300, 3599, 86400 + rng.randint(0, 9999)])
        local += timedelta(seconds=delta)
        since_sync += 1
        if since_sync > 25 and rng.random() < 0.1:   # a sync point: absolute time, and the next delta is from it
            lines.append(f"@{int((local - EPOCH).total_seconds()):X}")
            since_sync, delta = 0, 0
        door = rng.choice(doors)
        if door in door_index:
            dref = f"${door_index[door]}"
        else:
            door_index[door] = len(door_index)
            dref = quote(door)
        ev = rng.choices(["G", "D", "F", "H"], [10, 3, 1, 1])[0]
        utc = local - timedelta(minutes=offset)
        row = [utc.strftime("%Y-%m-%dT%H:%M:%SZ"), door, "", "", "", ""]
        if ev in "GD":
            if ev == "D" and rng.random() < 0.3:
                b = rng.choice(strangers)
            else:
                b = last_badge if (last_badge in pool and rng.random() < 0.3) else rng.choice(pool)
            bref = "^" if b == last_badge else f"{b:08X}"
            last_badge = b
            row[2], row[3] = str(b), badges.get(b, "")
            if ev == "G":
                row[4] = "granted"
                lines.append(f"{delta} G{dref} {bref}")
            else:
                code = 4 if b not in badges else rng.choice([1, 2, 3, 5])
                row[4], row[5] = "denied", REASONS[code]
                lines.append(f"{delta} D{dref} {bref} r{code}")
        elif ev == "F":
            row[4] = "forced"
            lines.append(f"{delta} F{dref}")
        else:
            secs = rng.randint(31, 900)
            row[4], row[5] = "held", f"open {secs}s"
            lines.append(f"{delta} H{dref} d{secs}")
        rows.append(row)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    w.writerows(rows)
    return "\n".join(lines) + "\n", buf.getvalue()
