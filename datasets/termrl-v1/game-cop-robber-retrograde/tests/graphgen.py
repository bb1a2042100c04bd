import random


def grid_graph(rng, R, C, holes):
    cells = [(r, c) for r in range(R) for c in range(C) if rng.random() >= holes]
    idx = {cell: i for i, cell in enumerate(cells)}
    edges = set()
    for (r, c), i in idx.items():
        for dr, dc in ((0, 1), (1, 0)):
            j = idx.get((r + dr, c + dc))
            if j is not None:
                edges.add((i, j))
    return len(cells), sorted(edges)


def random_graph(rng, n, m):
    edges = set()
    while len(edges) < m:
        u, v = rng.sample(range(n), 2)
        edges.add((min(u, v), max(u, v)))
    return n, sorted(edges)


def make(rng, kind):
    if kind == "grid":
        n, edges = grid_graph(rng, rng.randrange(4, 12), rng.randrange(4, 12), rng.uniform(0, 0.3))
    elif kind == "sparse":
        n = rng.randrange(20, 120)
        n, edges = random_graph(rng, n, rng.randrange(n - 1, int(n * 1.4)))
    else:
        n = rng.randrange(8, 40)
        n, edges = random_graph(rng, n, rng.randrange(n, 3 * n))
    exits = sorted(rng.sample(range(n), rng.randrange(0, 4)))
    cops = [c for c in range(n) if c not in exits]
    queries = []
    for _ in range(40):
        queries.append((rng.choice(cops), rng.randrange(n), rng.choice("CR")))
    return n, edges, exits, queries


def text(n, edges, exits, queries):
    out = [f"{n} {len(edges)}"] + [f"{u} {v}" for u, v in edges]
    out.append(" ".join(map(str, [len(exits)] + list(exits))))
    out.append(str(len(queries)))
    out += [f"{c} {r} {t}" for c, r, t in queries]
    return "\n".join(out) + "\n"
