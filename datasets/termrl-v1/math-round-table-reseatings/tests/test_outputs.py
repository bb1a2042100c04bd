import os
import random
import subprocess
import tempfile
from itertools import combinations, permutations

P = 1_000_000_007


# ---------- independent references ----------

def brute(n, offsets):
    allowed = {d % n for d in offsets}
    return sum(1 for p in permutations(range(n)) if all((p[i] - i) % n in allowed for i in range(n)))


def permanent(n, offsets):
    """exact permanent of the circulant 0/1 matrix, DP over the set of taken seats (n <= ~18)."""
    allowed = sorted({d % n for d in offsets})
    ways = [0] * (1 << n)
    ways[0] = 1
    for mask in range(1 << n):
        v = ways[mask]
        if not v:
            continue
        i = bin(mask).count("1")  # guest i picks next
        if i == n:
            continue
        for d in allowed:
            s = (i + d) % n
            if not mask >> s & 1:
                ways[mask | 1 << s] += v
    return ways[-1]


def window_trace(n, offsets):
    """sum over the number of taken seats k of trace(T_k^n) mod P; valid for n > 2w."""
    w = max(abs(d) for d in offsets)
    if w == 0:
        return 1
    total = 0
    for k in range(2 * w + 1):
        states = list(combinations(range(2 * w), k))
        pos = {s: j for j, s in enumerate(states)}
        size = len(states)
        T = [[0] * size for _ in range(size)]
        for s in states:
            taken = set(s)
            for d in offsets:
                c = d + w
                if c in taken:
                    continue
                new = taken | {c}
                if 0 not in new:
                    continue
                t = tuple(sorted(x - 1 for x in new if x > 0))
                T[pos[s]][pos[t]] += 1

        def mm(A, B):
            return [[sum(A[i][x] * B[x][j] for x in range(size)) % P for j in range(size)] for i in range(size)]

        R = [[int(i == j) for j in range(size)] for i in range(size)]
        e, M = n, T
        while e:
            if e & 1:
                R = mm(R, M)
            e >>= 1
            if e:
                M = mm(M, M)
        total += sum(R[i][i] for i in range(size))
    return total % P


def lucas(n):
    def fib(k):  # (F_k, F_{k+1}) mod P
        if k == 0:
            return 0, 1
        a, b = fib(k // 2)
        c = a * (2 * b - a) % P
        d = (a * a + b * b) % P
        return (d, (c + d) % P) if k % 2 else (c, d)
    f, g = fib(n)
    return (2 * g - f) % P  # L_n = F_(n-1) + F_(n+1) = 2 F_(n+1) - F_n


def run(queries):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        for n, offs in queries:
            fh.write(f"{n} {','.join(str(d) for d in offs)}\n")
    try:
        proc = subprocess.run(["python3", "/app/seats.py", fh.name], capture_output=True, text=True, timeout=600)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = [ln.strip() for ln in proc.stdout.split("\n") if ln.strip()]
    assert len(out) == len(queries), f"expected {len(queries)} lines, got {len(out)}"
    return out


def check(queries, ref):
    got = run(queries)
    bad = [f"n={n} D={offs}: expected {ref(n, offs) % P}, got {g}"
           for (n, offs), g in zip(queries, got) if g != str(ref(n, offs) % P)]
    assert not bad, "\n".join(bad[:8])


def random_offsets(rng):
    return sorted(rng.sample(range(-3, 4), rng.randint(1, 6)))


def test_example():
    got = run([(5, [-1, 0, 1]), (4, [-1, 1]), (6, [0, 1]), (7, [-2, -1, 0, 1, 2]), (3, [-3, 3]),
               (10 ** 18, [-1, 0, 1]), (12, [-3, -1, 2])])
    assert got == ["13", "4", "2", "579", "1", "150331334", "129"]


def test_tiny_tables_against_brute_force():
    rng = random.Random(9101)
    qs = [(n, random_offsets(rng)) for n in range(1, 9) for _ in range(5)]
    qs += [(n, [-3, -2, -1, 0, 1, 2, 3]) for n in range(1, 8)] + [(2, [-1, 1]), (2, [1]), (1, [-2, 3])]
    check(qs, brute)


def test_medium_tables_against_permanent():
    rng = random.Random(9102)
    qs = [(rng.randint(6, 16), random_offsets(rng)) for _ in range(25)]
    qs += [(16, [-3, -2, -1, 0, 1, 2, 3]), (15, [-3, 3]), (14, [1, 2, 3]), (13, [-3, -2, 2, 3])]
    check(qs, permanent)


def test_rotations_and_winding():
    # every guest moving the same way round the table (and mixes that wind around it)
    qs = [(9, [2]), (10, [-3]), (11, [1, 3]), (12, [-3, -2]), (13, [2, 3]), (14, [-1, 2]), (15, [-3, 1])]
    check(qs, permanent)
    big = [(10 ** 17 + 3, [1, 2]), (987654321987, [-3, -1]), (10 ** 18, [2, 3])]
    check(big, window_trace)


def test_neighbour_swaps_closed_form():
    rng = random.Random(9103)
    ns = [3, 4, 17, 10 ** 9, 10 ** 18] + [rng.randint(10, 10 ** 18) for _ in range(5)]
    got = run([(n, [-1, 0, 1]) for n in ns])
    want = [str((lucas(n) + 2) % P) for n in ns]
    assert got == want, list(zip(ns, got, want))


def test_huge_tables():
    rng = random.Random(9104)
    qs = [(rng.randint(10 ** 6, 10 ** 18), random_offsets(rng)) for _ in range(5)]
    qs += [(10 ** 18, [-3, -2, -1, 0, 1, 2, 3]), (999999999999999989, [-3, 0, 2])]
    check(qs, window_trace)


def test_mid_sized_tables():
    rng = random.Random(9105)
    qs = [(rng.randint(17, 5000), random_offsets(rng)) for _ in range(6)] + [(P, [-2, -1, 1, 2]), (2 * P + 7, [-3, 1, 2])]
    check(qs, window_trace)
