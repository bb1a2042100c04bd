"""Road networks for the tests: a jittered grid of junctions with one-way and two-way segments of
small costs (so many routes tie), repeated segments, a few long links, and names whose string order
differs from their numeric order."""


def network(rng, w, h, links=0.05, messy=True):
    ids = rng.sample(range(1, 20 * w * h), w * h)
    prefix = rng.choice(["j", "x", "J", "n-"])
    name = {}
    for k, (x, y) in enumerate([(x, y) for x in range(w) for y in range(h)]):
        name[x, y] = f"{prefix}{ids[k]}" if rng.random() < 0.9 else rng.choice(["depot", "Dock", "yard", "z"]) + str(ids[k])
    lines = []
    for x in range(w):
        for y in range(h):
            for dx, dy in ((1, 0), (0, 1)):
                if (x + dx, y + dy) not in name or rng.random() < 0.1:
                    continue
                a, b = name[x, y], name[x + dx, y + dy]
                c = rng.choice([1, 1, 2, 2, 3, 4])
                r = rng.random()
                if r < 0.6:
                    lines.append(f"{a} {b} {c} both")
                elif r < 0.8:
                    lines.append(f"{a} {b} {c}")
                else:
                    lines.append(f"{b} {a} {c}")
                if rng.random() < 0.05:
                    lines.append(f"{b} {a} {c + rng.choice([-1, 0, 1]) or 1}")
    nodes = list(name.values())
    for _ in range(int(links * w * h)):
        a, b = rng.sample(nodes, 2)
        lines.append(f"{a} {b} {rng.randint(3, 12)}" + rng.choice(["", " both"]))
    rng.shuffle(lines)
    if messy:
        out = []
        for ln in lines:
            if rng.random() < 0.02:
                out.append(rng.choice(["", "# closed for works", "   "]))
            out.append(ln.replace(" ", rng.choice([" ", "\t", "  "])) if rng.random() < 0.1 else ln)
        lines = out
    return "\n".join(lines) + "\n", nodes


def queries(rng, nodes, n, depots=None, extra=True):
    targets = rng.sample(nodes, depots) if depots else nodes
    rows = []
    for _ in range(n):
        r = rng.random()
        if extra and r < 0.03:
            a = rng.choice(nodes)
            rows.append(f"{a} {a}")
        elif extra and r < 0.05:
            rows.append(f"{rng.choice(nodes)} nowhere{rng.randint(1, 9)}")
        elif extra and r < 0.06:
            rows.append(f"ghost {rng.choice(['ghost', rng.choice(nodes)])}")
        else:
            rows.append(f"{rng.choice(nodes)} {rng.choice(targets)}")
    return "\n".join(rows) + "\n"
