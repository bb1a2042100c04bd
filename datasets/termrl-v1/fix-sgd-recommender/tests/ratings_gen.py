import numpy as np


def generate(seed, n_users=500, n_items=300, n_ratings=30000, rank=4):
    """Integer ratings 1..5 from a low-rank model with biases; returns (train rows, held-out rows)."""
    rng = np.random.default_rng(seed)
    bu = rng.normal(0, 0.45, n_users)
    bi = rng.normal(0, 0.55, n_items)
    P = rng.normal(0, 0.62, (n_users, rank))
    Q = rng.normal(0, 0.62, (n_items, rank))
    pop = rng.gamma(0.9, 1.0, n_items)
    pop /= pop.sum()
    act = rng.gamma(1.2, 1.0, n_users)
    act /= act.sum()
    seen = set()
    rows = []
    while len(rows) < n_ratings:
        u = int(rng.choice(n_users, p=act))
        i = int(rng.choice(n_items, p=pop))
        if (u, i) in seen:
            continue
        seen.add((u, i))
        r = 3.4 + bu[u] + bi[i] + P[u] @ Q[i] + rng.normal(0, 0.5)
        rows.append((u, i, int(min(5, max(1, round(r))))))
    uid = rng.permutation(n_users) * 7 + 1000
    iid = rng.permutation(n_items) * 3 + 50000
    rows = [(f"u{uid[u]}", f"m{iid[i]}", r) for u, i, r in rows]
    cut = int(len(rows) * 0.85)
    return rows[:cut], rows[cut:]
