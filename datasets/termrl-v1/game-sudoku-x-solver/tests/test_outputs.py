import os
import random
import subprocess
import tempfile
import time
import resource
import signal


# Speed limits measure CPU time, not wall-clock time: other work on the machine stretches the second,
# never the first. Each program runs under RLIMIT_CPU (its limit plus a margin); the wall-clock timeout
# is only a hang guard for a program that blocks without using CPU.
HANG_GUARD_S = 600


def run_cpu(cmd, cpu_limit, name, **kwargs):
    """Run ``cmd``; return (completed process, CPU seconds it used: user + system, from getrusage).
    RLIMIT_CPU stops it once it has used ``cpu_limit`` seconds of CPU."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, timeout=HANG_GUARD_S, preexec_fn=limit, **kwargs)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert proc.returncode not in (-signal.SIGXCPU, -signal.SIGKILL), f"{name} used more than {cpu_limit} s of CPU time"
    return proc, cpu


def units():
    us = [[(i, j) for j in range(9)] for i in range(9)] + [[(j, i) for j in range(9)] for i in range(9)]
    us += [[(3 * br + r, 3 * bc + c) for r in range(3) for c in range(3)] for br in range(3) for bc in range(3)]
    us += [[(i, i) for i in range(9)], [(i, 8 - i) for i in range(9)]]
    return us


UNITS = units()
PEERS = {(r, c): {p for u in UNITS if (r, c) in u for p in u} - {(r, c)} for r in range(9) for c in range(9)}


def search(grid, rng=None, count_limit=1):
    """Complete backtracking search; returns a solution (list of lists) or None."""
    grid = [row[:] for row in grid]
    cells = [(r, c) for r in range(9) for c in range(9)]

    def options(r, c):
        return {1, 2, 3, 4, 5, 6, 7, 8, 9} - {grid[pr][pc] for pr, pc in PEERS[(r, c)]}

    for r, c in cells:
        if grid[r][c] and grid[r][c] not in options(r, c):
            return None

    def rec():
        best, best_opts = None, None
        for r, c in cells:
            if not grid[r][c]:
                o = options(r, c)
                if best is None or len(o) < len(best_opts):
                    best, best_opts = (r, c), o
                    if len(o) <= 1:
                        break
        if best is None:
            return True
        vals = sorted(best_opts)
        if rng:
            rng.shuffle(vals)
        for v in vals:
            grid[best[0]][best[1]] = v
            if rec():
                return True
        grid[best[0]][best[1]] = 0
        return False

    return grid if rec() else None


def valid_solution(puzzle, sol):
    for r in range(9):
        for c in range(9):
            if puzzle[r][c] and puzzle[r][c] != sol[r][c]:
                return False
    return all(sorted(sol[r][c] for r, c in u) == list(range(1, 10)) for u in UNITS)


def fmt(grid):
    return "\n".join("".join(str(v) if v else "." for v in row) for row in grid) + "\n"


def run(grid, cpu_limit=30):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(fmt(grid))
    try:
        proc, elapsed = run_cpu(["python3", "/app/sudokux.py", fh.name], cpu_limit, "sudokux.py", text=True)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout.strip()
    if out == "NO SOLUTION":
        return None, elapsed
    lines = out.split("\n")
    assert len(lines) == 9 and all(len(l.strip()) == 9 and l.strip().isdigit() for l in lines), out
    return [[int(ch) for ch in l.strip()] for l in lines], elapsed


def make_puzzle(rng, givens):
    full = search([[0] * 9 for _ in range(9)], rng=rng)
    cells = [(r, c) for r in range(9) for c in range(9)]
    rng.shuffle(cells)
    puzzle = [row[:] for row in full]
    for r, c in cells[givens:]:
        puzzle[r][c] = 0
    return puzzle


def test_example():
    with open("/app/example.txt") as fh:
        puzzle = [[0 if ch == "." else int(ch) for ch in l.strip()] for l in fh if l.strip()]
    sol, _ = run(puzzle)
    assert sol is not None and valid_solution(puzzle, sol)


def test_random_puzzles():
    rng = random.Random(4242)
    for _ in range(12):
        puzzle = make_puzzle(rng, rng.randint(20, 30))
        sol, elapsed = run(puzzle, cpu_limit=22)
        assert sol is not None and valid_solution(puzzle, sol), fmt(puzzle)
        assert elapsed < 20


def test_empty_and_sparse_grids():
    empty = [[0] * 9 for _ in range(9)]
    sol, _ = run(empty)
    assert sol is not None and valid_solution(empty, sol)
    rng = random.Random(9)
    sparse = make_puzzle(rng, 8)
    sol, _ = run(sparse)
    assert sol is not None and valid_solution(sparse, sol)


def test_direct_diagonal_conflict():
    puzzle = [[0] * 9 for _ in range(9)]
    puzzle[0][0] = 5
    puzzle[4][4] = 5   # same main diagonal, different row/column/box
    sol, _ = run(puzzle)
    assert sol is None


def test_hidden_contradictions():
    rng = random.Random(77)
    found = 0
    attempts = 0
    while found < 3 and attempts < 200:
        attempts += 1
        puzzle = make_puzzle(rng, 26)
        r, c = rng.choice([(r, c) for r in range(9) for c in range(9) if not puzzle[r][c]])
        v = rng.randint(1, 9)
        if any(puzzle[pr][pc] == v for pr, pc in PEERS[(r, c)]):
            continue
        puzzle[r][c] = v
        if search(puzzle) is None:   # no direct conflict, but no solution
            found += 1
            sol, _ = run(puzzle)
            assert sol is None, fmt(puzzle)
    assert found == 3
