"""Booking files for the tests: clustered and spread bookings, many touching ends and equal times,
zero-length bookings, negative times, duplicate ids, comments and blank lines."""


def bookings(rng, n, span=10000, messy=True):
    rows = []
    for k in range(n):
        r = rng.random()
        if r < 0.3 and rows:
            _, a0, b0 = rng.choice(rows)
            a = rng.choice([b0, a0, b0 + 1, a0 - 1])
            b = a + rng.choice([0, 0, 1, 5, 30, 200])
        else:
            a = rng.randint(-span // 10, span)
            b = a + rng.choice([0, 1, 2, 10, 60, 240, rng.randint(0, max(1, span // 100))])
        ident = rng.choice([f"b{k}", f"room{rng.randint(1, 40)}-{k}", f"R{k:05d}", "dup"])
        rows.append((ident, a, b))
    lines = []
    for ident, a, b in rows:
        if messy and rng.random() < 0.03:
            lines.append(rng.choice(["", "# comment", "   "]))
        sep = rng.choice([" ", "\t", "  "]) if messy else " "
        lines.append(f"{ident}{sep}{a}{sep}{b}")
    return "\n".join(lines) + "\n"
