import random
import resource
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import nonogen  # noqa: E402


def solve(tmp_path, R, C, rows, cols, name="p.txt"):
    f = tmp_path / name
    f.write_text(nonogen.text(R, C, rows, cols))
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    before = kids.ru_utime + kids.ru_stime
    r = subprocess.run([sys.executable, "/app/nonogram.py", str(f)], capture_output=True, text=True, timeout=300)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout.split("\n"), kids.ru_utime + kids.ru_stime - before


def check(out, R, C, rows, cols):
    lines = [line for line in out if line != ""]
    assert len(lines) == R, f"expected {R} lines, got {len(lines)}"
    assert all(len(line) == C and set(line) <= {"#", "."} for line in lines), lines
    grid = [[1 if ch == "#" else 0 for ch in line] for line in lines]
    assert [nonogen.clues_of(r) for r in grid] == rows, "row clues violated"
    assert [nonogen.clues_of([grid[r][c] for r in range(R)]) for c in range(C)] == cols, "column clues violated"


def test_example(tmp_path):
    lines = open("/app/examples/puzzle1.txt").read().splitlines()
    R, C = map(int, lines[0].split())
    cl = [[int(x) for x in line.split() if x != "0"] for line in lines[1:]]
    out, _ = solve(tmp_path, R, C, cl[:R], cl[R:])
    check(out, R, C, cl[:R], cl[R:])


@pytest.mark.parametrize("seed", range(10))
def test_hidden_random_pictures(tmp_path, seed):
    rng = random.Random(1000 + seed)
    R, C = rng.randrange(1, 26), rng.randrange(1, 26)
    _, rows, cols = nonogen.puzzle(rng, R, C, rng.uniform(0.55, 0.75))
    out, cpu = solve(tmp_path, R, C, rows, cols)
    check(out, R, C, rows, cols)
    assert cpu <= 20, f"{cpu:.1f} s of CPU time"


def test_large_puzzles_within_cpu_budget(tmp_path):
    rng = random.Random(2024)
    for i in range(4):
        _, rows, cols = nonogen.puzzle(rng, 25, 25, 0.55 + 0.05 * i)
        out, cpu = solve(tmp_path, 25, 25, rows, cols, f"big{i}.txt")
        check(out, 25, 25, rows, cols)
        assert cpu <= 20, f"{cpu:.1f} s of CPU time"


def test_ambiguous_puzzles_need_a_guess(tmp_path):
    # checkerboard-like clues: many solutions, line logic alone decides nothing
    for n in (2, 4, 8):
        rows = [[1] * (n // 2)] * n
        cols = [[1] * (n // 2)] * n
        out, _ = solve(tmp_path, n, n, rows, cols)
        check(out, n, n, rows, cols)
    rows, cols = [[1], [1], [1], [1], [1]], [[1], [1], [1], [1], [1]]   # any permutation matrix
    out, _ = solve(tmp_path, 5, 5, rows, cols)
    check(out, 5, 5, rows, cols)


def test_unsolvable_puzzles(tmp_path):
    cases = [
        (3, 3, [[1, 1], [], [1, 1]], [[1], [1], [2]]),
        (6, 6, [[2, 1, 1], [6], [1, 1, 2], [1, 1, 2], [2, 1, 1], [1, 1]], [[2, 1], [6], [3], [2, 1], [3, 1], [5]]),
        (6, 6, [[4], [1, 1, 1], [1, 1, 1], [4], [1, 1, 1], [2]], [[2, 2], [1, 2], [2], [1, 2, 1], [2, 2], [2]]),
    ]
    for R, C, rows, cols in cases:
        out, _ = solve(tmp_path, R, C, rows, cols)
        assert [line for line in out if line] == ["NONE"], (rows, cols)


def test_empty_lines_and_thin_puzzles(tmp_path):
    for R, C, rows, cols in [(1, 7, [[2, 3]], [[1], [1], [], [1], [1], [1], []]),
                             (4, 1, [[], [1], [1], []], [[2]]),
                             (3, 4, [[], [], []], [[], [], [], []])]:
        out, _ = solve(tmp_path, R, C, rows, cols)
        check(out, R, C, rows, cols)
