import csv
import random


def gen(path, seed, n=600):
    rng = random.Random(seed)
    rows, ids = [], []
    seqs = rng.sample(range(1, 10 * n), n)
    seqs.sort()
    mid = 1000
    for s in seqs:
        r = rng.random()
        mid += rng.choice([-1, 0, 0, 1])
        if r < 0.55 or not ids:
            oid = f"O{len(ids) + 1}" if rng.random() > 0.01 or not ids else rng.choice(ids)
            ids.append(oid)
            side = rng.choice(["BUY", "SELL"])
            off = rng.randint(-6, 6)
            price = mid - abs(off) if side == "BUY" and rng.random() < 0.7 else mid + abs(off) if side == "SELL" and rng.random() < 0.7 else mid + off
            qty = rng.choice([1, 5, 10, 20, 50, 100]) if rng.random() > 0.01 else 0
            rows.append([s, "LIMIT", oid, side, price, qty])
        elif r < 0.65:
            ids.append(f"O{len(ids) + 1}")
            rows.append([s, "MARKET", ids[-1], rng.choice(["BUY", "SELL"]), "", rng.choice([5, 30, 150])])
        elif r < 0.82:
            rows.append([s, "CANCEL", rng.choice(ids) if rng.random() > 0.05 else "NOPE", "", "", ""])
        elif r < 0.97:
            rows.append([s, "MODIFY", rng.choice(ids), "", mid + rng.randint(-6, 6), rng.choice([1, 3, 10, 60])])
        else:
            rows.append([s, "HALT", "", "", "", ""])
    rng.shuffle(rows)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["seq", "type", "order_id", "side", "price", "qty"])
        w.writerows(rows)
