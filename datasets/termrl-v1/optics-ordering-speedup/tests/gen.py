"""Point sets for the tests: Gaussian blobs of different densities, lattice patches (many equal
distances, hence ties), duplicated points, sparse noise; coordinates are integers."""


def points(rng, n, spread=1000, blob=None):
    pts = []
    while len(pts) < n:
        kind = rng.random()
        cx, cy = rng.randint(-spread, spread), rng.randint(-spread, spread)
        m = rng.randint(5, max(6, blob or n // 6))
        if kind < 0.45:
            s = rng.choice([2, 4, 8, 15, 30])
            pts += [(int(rng.gauss(cx, s)), int(rng.gauss(cy, s))) for _ in range(m)]
        elif kind < 0.7:
            step = rng.choice([1, 2, 3, 5])
            w = rng.randint(2, 12)
            pts += [(cx + step * (k % w), cy + step * (k // w)) for k in range(m)]
        elif kind < 0.8 and pts:
            pts += [rng.choice(pts) for _ in range(min(m, 20))]
        else:
            pts += [(rng.randint(-spread, spread), rng.randint(-spread, spread)) for _ in range(m // 3 + 1)]
    pts = pts[:n]
    rng.shuffle(pts)
    return pts


def write(path, pts, rng=None, messy=False):
    lines = []
    for x, y in pts:
        if messy and rng.random() < 0.05:
            lines.append(rng.choice(["", "# comment", "   ", "#"]))
        sep = rng.choice([" ", "\t", "  ", " \t "]) if messy else " "
        lines.append(f"{x}{sep}{y}" if not messy or rng.random() > 0.05 else f"  {x}{sep}{y}  ")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
