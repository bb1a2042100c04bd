import os
import random
import resource
import signal
import subprocess
import tempfile
from collections import deque


# Speed limits measure CPU time, not wall-clock time: other work on the machine stretches the second,
# never the first. numpy is held to one thread so that its thread pool cannot add CPU time of its own.
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
HANG_GUARD_S = 600   # wall-clock: only stops a program that blocks without using CPU


def run_cpu(cmd, cpu_limit, name):
    """Run ``cmd``; return (completed process, CPU seconds it used: user + system, from getrusage).
    RLIMIT_CPU stops it once it has used ``cpu_limit`` seconds of CPU."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=HANG_GUARD_S, preexec_fn=limit,
                          env={**os.environ, **ONE_THREAD})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert proc.returncode != -signal.SIGXCPU, f"{name} used more than {cpu_limit} s of CPU time"
    return proc, cpu


def reference(grid):
    h, w = len(grid), len(grid[0])
    pos = {}
    for y in range(h):
        for x in range(w):
            pos.setdefault(grid[y][x], []).append((y, x))
    pair = {}
    for d in "123456789":
        if d in pos:
            a, b = pos[d]
            pair[a], pair[b] = b, a
    start = pos["S"][0]
    dist = {(start, 0): 0}
    q = deque([(start, 0)])
    while q:
        (y, x), k = q.popleft()
        d = dist[((y, x), k)]
        if grid[y][x] == "G":
            return d
        cand = [(y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)]
        if (y, x) in pair:
            cand.append(pair[(y, x)])
        for ny, nx in cand:
            if not (0 <= ny < h and 0 <= nx < w):
                continue
            c = grid[ny][nx]
            if c == "#":
                continue
            if c in "ABCDEF" and not (k >> (ord(c) - 65)) & 1:
                continue
            nk = k | (1 << (ord(c) - 97)) if c in "abcdef" else k
            if ((ny, nx), nk) not in dist:
                dist[((ny, nx), nk)] = d + 1
                q.append(((ny, nx), nk))
    return -1


def run(grid):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("\n".join(grid) + "\n")
    try:
        proc, elapsed = run_cpu(["python3", "/app/maze.py", fh.name], 15, "maze.py")
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return int(proc.stdout.strip()), elapsed


def random_maze(rng, h, w, wall=0.3, nkeys=3, ntele=2, missing_key=False):
    g = [["#" if rng.random() < wall else "." for _ in range(w)] for _ in range(h)]
    cells = [(y, x) for y in range(h) for x in range(w)]
    rng.shuffle(cells)
    it = iter(cells)
    for ch in "SG":
        y, x = next(it)
        g[y][x] = ch
    letters = "abcdef"[:nkeys]
    for i, k in enumerate(letters):
        if not (missing_key and i == 0):
            y, x = next(it)
            g[y][x] = k
        for _ in range(rng.randint(1, 6)):
            y, x = next(it)
            g[y][x] = k.upper()
    for d in "123456789"[:ntele]:
        for _ in range(2):
            y, x = next(it)
            g[y][x] = d
    return ["".join(r) for r in g]


def corridor_maze():
    # keys must be fetched in order from dead ends; the route crosses itself
    return [
        "###########",
        "#a..A...B.#",
        "#.#######.#",
        "#S..b...CG#",
        "#c#########",
        "###########",
    ]


def test_examples():
    with open("/app/mazes/answers.txt") as fh:
        for line in fh:
            name, want = line.split()
            with open(f"/app/mazes/{name}") as m:
                grid = m.read().split()
            assert run(grid)[0] == int(want), name


def test_backtracking_for_keys():
    g = corridor_maze()
    assert run(g)[0] == reference(g)
    assert reference(g) > 0


def test_random_small_mazes():
    rng = random.Random(1357)
    for _ in range(30):
        g = random_maze(rng, rng.randint(4, 9), rng.randint(4, 9), wall=0.25, nkeys=rng.randint(0, 3),
                        ntele=rng.randint(0, 2))
        assert run(g)[0] == reference(g), "\n".join(g)


def test_teleporters_cost_one_step_and_are_optional():
    g = ["#########",
         "#S1...1G#",
         "#########"]
    assert run(g)[0] == 3
    g2 = ["#######",
          "#1S.G1#",
          "#######"]
    assert run(g2)[0] == 2
    g3 = ["#####",
          "#S#G#",
          "#1#1#",
          "#####"]
    assert run(g3)[0] == 3


def test_missing_key_and_unreachable():
    rng = random.Random(99)
    found = 0
    for _ in range(60):
        g = random_maze(rng, 8, 8, wall=0.35, nkeys=2, ntele=1, missing_key=True)
        want = reference(g)
        assert run(g)[0] == want
        found += want == -1
    assert found > 0


def test_large_mazes_fast():
    rng = random.Random(2468)
    for _ in range(3):
        g = random_maze(rng, 60, 60, wall=0.22, nkeys=6, ntele=9)
        got, elapsed = run(g)
        assert got == reference(g)
        assert elapsed < 10, elapsed   # CPU seconds
