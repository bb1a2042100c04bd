import os
import random
import subprocess
import tempfile
from functools import lru_cache
from itertools import combinations, product
from math import comb, factorial


# ---------- references ----------

def brute(rows, cols):
    """enumerate every row as a set of columns (tiny sizes only)."""
    m = len(cols)
    choices = [list(combinations(range(m), r)) if r <= m else [] for r in rows]
    total = 0
    for pick in product(*choices):
        got = [0] * m
        for s in pick:
            for j in s:
                got[j] += 1
        total += got == list(cols)
    return total


def by_columns(rows, cols):
    """column by column; memo on the sorted remaining row sums, rows grouped by equal remainder."""
    if sum(rows) != sum(cols) or any(r > len(cols) for r in rows) or any(c > len(rows) for c in cols):
        return 0
    cols = sorted(cols, reverse=True)

    @lru_cache(maxsize=None)
    def go(rem, j):
        if j == len(cols):
            return int(all(x == 0 for x in rem))
        groups = {}
        for x in rem:
            groups[x] = groups.get(x, 0) + 1
        keys = sorted(groups)
        total = 0

        def pick(i, need, mult, out):
            nonlocal total
            if i == len(keys):
                if need == 0:
                    total += mult * go(tuple(sorted(out)), j + 1)
                return
            v, cnt = keys[i], groups[keys[i]]
            top = 0 if v == 0 else min(cnt, need)
            for k in range(top + 1):
                pick(i + 1, need - k, mult * comb(cnt, k), out + [v - 1] * k + [v] * (cnt - k))

        pick(0, cols[j], 1, [])
        return total

    return go(tuple(sorted(rows)), 0)


def run(queries):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        for rows, cols in queries:
            fh.write(",".join(map(str, rows)) + " " + ",".join(map(str, cols)) + "\n")
    try:
        proc = subprocess.run(["python3", "/app/margins.py", fh.name], capture_output=True, text=True, timeout=300)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = [ln.strip() for ln in proc.stdout.split("\n") if ln.strip()]
    assert len(out) == len(queries), f"expected {len(queries)} lines, got {len(out)}"
    return out


def check(queries, ref):
    got = run(queries)
    bad = [f"rows={r} cols={c}: expected {ref(r, c)}, got {g}" for (r, c), g in zip(queries, got) if g != str(ref(r, c))]
    assert not bad, "\n".join(bad[:6])


def random_margins(rng, n, m, p):
    mat = [[int(rng.random() < p) for _ in range(m)] for _ in range(n)]
    return [sum(row) for row in mat], [sum(mat[i][j] for i in range(n)) for j in range(m)]


def test_example():
    got = run([([2, 2, 2], [2, 2, 2]), ([1, 1], [1, 1]), ([3, 1, 1], [2, 2, 1]), ([2, 2], [2, 1]), ([0, 0, 0], [0, 0])])
    assert got == ["6", "2", "2", "0", "1"]


def test_small_against_brute_force():
    rng = random.Random(4401)
    qs = []
    for _ in range(30):
        n, m = rng.randint(1, 4), rng.randint(1, 4)
        qs.append(random_margins(rng, n, m, rng.uniform(0.2, 0.8)))
    check(qs, brute)


def test_impossible_margins_give_zero():
    qs = [([3, 0], [1, 1]), ([2, 2, 0], [3, 1]), ([1, 1, 1], [3, 0, 0, 1]), ([4, 4, 0, 0], [2, 2, 2, 2]),
          ([5], [1, 1, 1, 1]), ([2, 2, 2, 2, 2], [5, 5, 0]), ([3, 3, 0], [2, 2, 2]), ([3, 3, 0], [3, 3]),
          ([4, 1, 1], [2, 2, 2])]
    check(qs, brute)
    got = run(qs)
    assert got.count("0") == 6


def test_known_families():
    qs = [([1] * 12, [1] * 12), ([11] * 12, [11] * 12), ([2] * 8, [2] * 8), ([2] * 10, [2] * 10)]
    got = run(qs)
    assert got[0] == got[1] == str(factorial(12))
    assert got[2] == "187530840"  # 8x8, two ones in every row and column
    assert got[3] == str(by_columns([2] * 10, [2] * 10))


def test_medium_against_independent_counter():
    rng = random.Random(4402)
    qs = [random_margins(rng, rng.randint(5, 9), rng.randint(5, 9), rng.uniform(0.2, 0.8)) for _ in range(10)]
    check(qs, by_columns)


def test_twelve_by_twelve():
    rng = random.Random(4403)
    qs = [random_margins(rng, 12, 12, p) for p in (0.35, 0.5, 0.65)]
    qs += [([6] * 12, [6] * 12), (list(range(1, 13)), list(range(12, 0, -1))), ([12, 0] * 6, [6] * 12),
           ([5, 6, 7] * 4, [4, 8, 6] * 4)]
    check(qs, by_columns)


def test_rectangular_and_skewed():
    rng = random.Random(4404)
    qs = [random_margins(rng, 12, rng.randint(1, 6), 0.5) for _ in range(3)]
    qs += [random_margins(rng, rng.randint(1, 6), 12, 0.5) for _ in range(3)]
    qs += [random_margins(rng, 11, 12, 0.15), random_margins(rng, 12, 10, 0.85), ([1] * 12, [12])]
    check(qs, by_columns)
