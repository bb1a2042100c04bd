"""Writes a sample snapshot + CDC batches (fixed seed) for the customers loader."""
import json
import random
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

OFFSETS = [0, 0, 60, 120, -300, -240, 330, 540, -180]
TIERS = ["free", "basic", "gold", "platinum"]
COUNTRIES = ["DE", "FR", "US", "IN", "JP", "BR", None]


def stamp(rng, t):
    off = rng.choice(OFFSETS)
    if off == 0 and rng.random() < 0.5:
        return t.strftime("%Y-%m-%dT%H:%M:%SZ")
    return t.astimezone(timezone(timedelta(minutes=off))).isoformat()


def money(rng, c):
    s = f"{c / 100:.2f}" if c % 100 else str(c // 100)
    if s.endswith("0") and "." in s and rng.random() < 0.5:
        s = s[:-1]
    return s


def generate(seed, n_customers=60, n_events=400):
    rng = random.Random(seed)
    t = datetime(2026, 3, 20, 8, 0, tzinfo=timezone.utc)
    lsn0 = 5000 + rng.randrange(1000)
    rows, snap = {}, []
    ids = sorted(rng.sample(range(1, 400), n_customers))
    for k in ids:
        row = {"email": rng.choice([f"c{k}@example.org", None]), "tier": rng.choice(TIERS),
               "balance": rng.randrange(-5000, 500000), "country": rng.choice(COUNTRIES)}
        upd = t - timedelta(minutes=rng.randrange(1, 20000))
        rows[k] = row
        snap.append([k, row["email"] or "", row["tier"], row["balance"], row["country"] or "", stamp(rng, upd)])
    events, lsn = [], lsn0 - 6
    for _ in range(6):  # already reflected in the snapshot (the last one has lsn == snapshot lsn)
        lsn += 1
        k = rng.choice(ids)
        events.append({"lsn": lsn, "op": "u", "ts": stamp(rng, t - timedelta(seconds=rng.randrange(60, 600))),
                       "key": k, "after": {"tier": rng.choice(TIERS), "balance": money(rng, rng.randrange(0, 99999))}})
    alive = set(ids)
    dead = set()
    for _ in range(n_events):
        lsn += 1 + (rng.random() < 0.2)
        t += timedelta(seconds=rng.choice([0, 1, 7, 30, 300, 4000]))
        r = rng.random()
        if r < 0.55 and alive:
            k = rng.choice(sorted(alive))
            after = {}
            for col in rng.sample(["email", "tier", "balance", "country"], rng.randint(1, 3)):
                if col == "email":
                    after[col] = rng.choice([f"n{lsn}@example.com", None])
                elif col == "tier":
                    after[col] = rng.choice(TIERS)
                elif col == "balance":
                    after[col] = money(rng, rng.randrange(-5000, 500000))
                else:
                    after[col] = rng.choice(COUNTRIES)
            ev = {"lsn": lsn, "op": "u", "ts": stamp(rng, t), "key": k, "after": after}
        elif r < 0.65 and alive:
            k = rng.choice(sorted(alive))
            alive.discard(k)
            dead.add(k)
            ev = {"lsn": lsn, "op": "d", "ts": stamp(rng, t), "key": k}
        elif r < 0.72 and dead:
            k = rng.choice(sorted(dead))  # stale update/delete of a deleted key
            ev = {"lsn": lsn, "op": rng.choice("ud"), "ts": stamp(rng, t), "key": k}
            if ev["op"] == "u":
                ev["after"] = {"tier": rng.choice(TIERS)}
        else:
            pool = sorted(dead) if dead and rng.random() < 0.5 else None
            k = rng.choice(pool) if pool else rng.choice([x for x in range(1, 500) if x not in alive])
            if rng.random() < 0.1 and alive:
                k = rng.choice(sorted(alive))  # create over an existing row
            dead.discard(k)
            alive.add(k)
            ev = {"lsn": lsn, "op": "c", "ts": stamp(rng, t), "key": k,
                  "after": {"email": rng.choice([f"c{k}.{lsn}@example.net", None]), "tier": rng.choice(TIERS),
                            "balance": money(rng, rng.randrange(-5000, 500000)), "country": rng.choice(COUNTRIES)}}
        events.append(ev)
    # batches of consecutive LSNs, uploaded out of order, some uploaded twice
    batches, i = [], 0
    while i < len(events):
        n = rng.randint(15, 45)
        batches.append(events[i:i + n])
        i += n
    uploads = batches[:]
    for b in rng.sample(batches, max(2, len(batches) // 3)):
        uploads.append(b[rng.randrange(len(b) // 2):])
    rng.shuffle(uploads)
    files = []
    for b in uploads:
        lines = [json.dumps(e) for e in b]
        rng.shuffle(lines)
        files.append("\n".join(lines) + "\n")
    meta = {"lsn": lsn0, "taken_at": stamp(rng, datetime(2026, 3, 20, 8, 0, tzinfo=timezone.utc))}
    return meta, snap, files


def write(seed, snapdir, changedir, **kw):
    meta, snap, files = generate(seed, **kw)
    snapdir, changedir = Path(snapdir), Path(changedir)
    snapdir.mkdir(parents=True, exist_ok=True)
    changedir.mkdir(parents=True, exist_ok=True)
    (snapdir / "snapshot.json").write_text(json.dumps(meta) + "\n")
    with open(snapdir / "snapshot.csv", "w") as f:
        f.write("customer_id,email,tier,balance_cents,country,updated_at\n")
        for r in snap:
            f.write(",".join(str(x) for x in r) + "\n")
    for i, body in enumerate(files):
        (changedir / f"batch-{i + 1:04d}.jsonl").write_text(body)


if __name__ == "__main__":
    out = Path(sys.argv[1])
    write(20260320, out / "snapshot", out / "changes")
