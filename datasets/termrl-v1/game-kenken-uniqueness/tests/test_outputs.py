import os
import random
import subprocess
import tempfile


# ---------- hidden puzzles, generated here ----------

def latin(rng, n):
    base = [[(r + c) % n + 1 for c in range(n)] for r in range(n)]
    rows = list(range(n)); cols = list(range(n)); sym = list(range(1, n + 1))
    rng.shuffle(rows); rng.shuffle(cols); rng.shuffle(sym)
    return [[sym[base[rows[r]][cols[c]] - 1] for c in range(n)] for r in range(n)]


def random_cages(rng, n, maxsize=4):
    free = {(r, c) for r in range(n) for c in range(n)}
    cages = []
    while free:
        start = min(free) if rng.random() < 0.5 else rng.choice(sorted(free))
        size = rng.choice([1, 2, 2, 2, 3, 3, 4][: 3 + maxsize])
        cells = [start]
        free.discard(start)
        while len(cells) < size:
            nb = [(r + dr, c + dc) for r, c in cells for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                  if (r + dr, c + dc) in free]
            if not nb:
                break
            x = rng.choice(sorted(set(nb)))
            cells.append(x)
            free.discard(x)
        cages.append(cells)
    return cages


def label(rng, grid, cells):
    ds = [grid[r][c] for r, c in cells]
    if len(ds) == 1:
        return "=", ds[0]
    if len(ds) == 2:
        hi, lo = max(ds), min(ds)
        ops = ["+", "*", "-", "-"] + (["/", "/"] if hi % lo == 0 else [])
        op = rng.choice(ops)
        return op, {"+": hi + lo, "*": hi * lo, "-": hi - lo, "/": hi // max(lo, 1)}[op]
    op = rng.choice("+*")
    v = sum(ds) if op == "+" else eval("*".join(map(str, ds)))
    return op, v


def make(rng, n, maxsize=4):
    g = latin(rng, n)
    cages = []
    for cells in random_cages(rng, n, maxsize):
        rng.shuffle(cells)
        op, t = label(rng, g, cells)
        cages.append((op, t, cells))
    rng.shuffle(cages)
    return n, cages


def text(n, cages):
    out = [str(n), str(len(cages))]
    for op, t, cells in cages:
        out.append(" ".join([op, str(t)] + [f"{r} {c}" for r, c in cells]))
    return "\n".join(out) + "\n"


# ---------- independent reference: cell-by-cell search, counts up to 2 ----------

def reference(n, cages):
    owner = {}
    for i, (_, _, cells) in enumerate(cages):
        for cell in cells:
            owner[cell] = i
    order = [(r, c) for r in range(n) for c in range(n)]
    last = {}
    for idx, cell in enumerate(order):
        last[owner[cell]] = idx
    g = [[0] * n for _ in range(n)]
    sols = []

    def cage_ok(i, complete):
        op, t, cells = cages[i]
        vals = [g[r][c] for r, c in cells if g[r][c]]
        if op == "+":
            return sum(vals) == t if complete else sum(vals) + (len(cells) - len(vals)) <= t
        if op == "*":
            p = 1
            for v in vals:
                p *= v
            return p == t if complete else t % p == 0
        if not complete:
            return True
        if op == "=":
            return vals[0] == t
        hi, lo = max(vals), min(vals)
        return hi - lo == t if op == "-" else hi == lo * t

    def go(k):
        if len(sols) >= 2:
            return
        if k == n * n:
            sols.append([row[:] for row in g])
            return
        r, c = order[k]
        for d in range(1, n + 1):
            if d in g[r][:c] or any(g[x][c] == d for x in range(r)):
                continue
            g[r][c] = d
            i = owner[(r, c)]
            if cage_ok(i, last[i] == k):
                go(k + 1)
            g[r][c] = 0
        return

    go(0)
    if not sols:
        return "NONE"
    if len(sols) > 1:
        return "MULTIPLE"
    return "\n".join(" ".join(map(str, row)) for row in sols[0])


def run(n, cages):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(text(n, cages))
    try:
        proc = subprocess.run(["python3", "/app/kenken.py", fh.name], capture_output=True, text=True, timeout=300)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return "\n".join(ln.rstrip() for ln in proc.stdout.strip().split("\n"))


def compare(puzzles):
    kinds = {"NONE": 0, "MULTIPLE": 0, "unique": 0}
    for n, cages in puzzles:
        want = reference(n, cages)
        got = run(n, cages)
        assert got == want, f"puzzle:\n{text(n, cages)}\nexpected:\n{want}\ngot:\n{got}"
        kinds[want if want in kinds else "unique"] += 1
    return kinds


def parse_file(path):
    lines = open(path).read().split("\n")
    n, k = int(lines[0]), int(lines[1])
    cages = []
    for ln in lines[2:2 + k]:
        p = ln.split()
        cages.append((p[0], int(p[1]), [(int(p[i]), int(p[i + 1])) for i in range(2, len(p), 2)]))
    return n, cages


def test_examples():
    n, cages = parse_file("/app/examples/unique4.txt")
    assert reference(n, cages) not in ("NONE", "MULTIPLE")
    assert run(n, cages) == reference(n, cages)
    assert run(*parse_file("/app/examples/multi3.txt")) == "MULTIPLE"


def test_small_grids_mixed_verdicts():
    rng = random.Random(9101)
    puzzles = [make(rng, rng.randint(1, 4)) for _ in range(40)]
    kinds = compare(puzzles)
    assert kinds["unique"] >= 5 and kinds["MULTIPLE"] >= 5, kinds


def test_five_by_five():
    rng = random.Random(9102)
    kinds = compare([make(rng, 5) for _ in range(14)])
    assert kinds["unique"] >= 3, kinds


def test_six_by_six():
    rng = random.Random(9103)
    kinds = compare([make(rng, 6, maxsize=3) for _ in range(8)])
    assert kinds["unique"] >= 2, kinds


def test_unsolvable_puzzles():
    rng = random.Random(9104)
    puzzles = []
    while len(puzzles) < 12:
        n, cages = make(rng, rng.randint(3, 5))
        i = rng.randrange(len(cages))
        op, t, cells = cages[i]
        cages[i] = (op, t + rng.choice([1, 2, 3]), cells)
        puzzles.append((n, cages))
    kinds = compare(puzzles)
    assert kinds["NONE"] >= 6, kinds


def test_subtraction_and_division_are_unordered():
    rng = random.Random(9105)
    puzzles = []
    for _ in range(10):
        n = rng.randint(3, 5)
        g = latin(rng, n)
        cages = []
        cells = [(r, c) for r in range(n) for c in range(n)]
        # horizontal dominoes with - or /, the cell order chosen so the larger digit often comes second
        used = set()
        for r in range(n):
            for c in range(0, n - 1, 2):
                a, b = g[r][c], g[r][c + 1]
                hi, lo = max(a, b), min(a, b)
                op = "/" if hi % lo == 0 and rng.random() < 0.6 else "-"
                t = hi // lo if op == "/" else hi - lo
                pair = [(r, c), (r, c + 1)] if a < b else [(r, c + 1), (r, c)]
                cages.append((op, t, pair))
                used.update(pair)
        for cell in cells:
            if cell not in used:
                cages.append(("=", g[cell[0]][cell[1]], [cell]))
        puzzles.append((n, cages))
    compare(puzzles)


def test_huge_cages_many_solutions():
    # whole rows as + cages: every Latin square fits (millions for n = 6); must stop early
    for n in (4, 5, 6):
        cages = [("+", n * (n + 1) // 2, [(r, c) for c in range(n)]) for r in range(n)]
        assert run(n, cages) == "MULTIPLE"
    # the same plus the first row and first column pinned: still many solutions for n >= 4
    n = 6
    cages = [("=", c + 1, [(0, c)]) for c in range(n)] + [("=", r + 1, [(r, 0)]) for r in range(1, n)]
    cages.append(("*", 720 ** 5 // (2 * 3 * 4 * 5 * 6), [(r, c) for r in range(1, n) for c in range(1, n)]))
    assert reference(n, cages) == "MULTIPLE"
    assert run(n, cages) == "MULTIPLE"
