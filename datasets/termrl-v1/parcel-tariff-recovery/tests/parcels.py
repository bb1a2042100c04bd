import random
from decimal import Decimal as D


def parcels(seed, n):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        r = rng.random()
        if r < 0.12:  # big light boxes
            dims = [rng.randint(40, 95) for _ in range(3)]
            wg = rng.randint(200, 6000)
        elif r < 0.22:  # long items
            dims = [rng.randint(96, 150), rng.randint(5, 30), rng.randint(5, 30)]
            wg = rng.randint(500, 25000)
        elif r < 0.30:  # weights on or next to a half-kilogram step
            dims = [rng.randint(5, 30) for _ in range(3)]
            wg = rng.randint(1, 40) * 500 + rng.choice([-1, 0, 0, 1])
        else:
            dims = [rng.randint(5, 60) for _ in range(3)]
            wg = int(round(10 ** rng.uniform(1.7, 4.48)))
        rng.shuffle(dims)
        dv = 0 if rng.random() < 0.3 else (rng.randint(1, 25000) if rng.random() < 0.6 else rng.randint(25001, 300000))
        out.append({"id": f"Q{seed % 1000:03d}{i:05d}", "zone": rng.randint(1, 6),
                    "service": rng.choice(["standard", "standard", "express"]), "weight_g": max(wg, 20),
                    "length_cm": dims[0], "width_cm": dims[1], "height_cm": dims[2],
                    "residential": int(rng.random() < 0.4), "declared_value": f"{D(dv) / 100:.2f}"})
    return out
