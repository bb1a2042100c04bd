"""Writes a sample sales file (fixed seed)."""
import math
import random
import sys
from datetime import date, timedelta


def generate(seed, n_series=14, days=150):
    rng = random.Random(seed)
    end = date(2026, 6, 30) - timedelta(days=rng.randrange(20))
    rows = []
    skus = rng.sample([f"{c}-{n}" for c in "ABK" for n in (1, 2, 3, 7, 10, 12, 25)], n_series)
    for i, sku in enumerate(skus):
        store = rng.choice(["S01", "S02", "S10", "S2"])
        start = end - timedelta(days=rng.randrange(30, days))
        level = rng.uniform(0.3, 12)
        week = [rng.uniform(0.4, 1.8) for _ in range(7)]
        constant = i == 0
        d = start
        first = True
        while d <= end:
            if constant:
                u = 3 if d.weekday() == 0 else 0
                if d > end - timedelta(days=30):
                    u = rng.randrange(0, 5)
            else:
                lam = level * week[d.weekday()]
                u = 0
                # Poisson by inversion
                p, c, x = math.exp(-lam), math.exp(-lam), rng.random()
                while x > c and u < 200:
                    u += 1
                    p *= lam / u
                    c += p
            if first:
                u = max(u, 1)
                first = False
            if u > 0:
                parts = rng.randint(1, min(3, u))
                cuts = sorted(rng.sample(range(1, u), parts - 1)) if parts > 1 else []
                prev = 0
                for c in cuts + [u]:
                    rows.append((store, sku, d.isoformat(), c - prev))
                    prev = c
                if rng.random() < 0.05:
                    rows.append((store, sku, d.isoformat(), -1))
            d += timedelta(days=1)
    # the last date of the file belongs to one series only
    rows.append(("S01", skus[1], end.isoformat(), 2))
    rng.shuffle(rows)
    return rows


def write(path, seed, **kw):
    with open(path, "w") as f:
        f.write("store,sku,date,units\n")
        for r in generate(seed, **kw):
            f.write(",".join(map(str, r)) + "\n")


if __name__ == "__main__":
    write(sys.argv[1], 20260630)
