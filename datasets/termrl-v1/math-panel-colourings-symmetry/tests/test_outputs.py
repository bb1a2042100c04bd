import random
import subprocess
from itertools import permutations, product

PROG = ["python3", "/app/panels.py"]


# ---------- brute force: enumerate proper colourings, canonical form under the group ----------

def brute(N, M, K, mode):
    cells = N * M
    perms = [tuple(range(K))] if mode == "labelled" else list(permutations(range(K)))
    moves = [lambda i, j: (i, j), lambda i, j: (i, M - 1 - j),
             lambda i, j: (N - 1 - i, j), lambda i, j: (N - 1 - i, M - 1 - j)]
    tables = []
    for g in moves:
        t = [0] * cells
        for i in range(N):
            for j in range(M):
                a, b = g(i, j)
                t[i * M + j] = a * M + b
        tables.append(t)
    seen = set()
    col = [0] * cells

    def rec(p):
        if p == cells:
            best = None
            for t in tables:
                for pi in perms:
                    img = [0] * cells
                    for x in range(cells):
                        img[t[x]] = pi[col[x]]
                    img = tuple(img)
                    if best is None or img < best:
                        best = img
            seen.add(best)
            return
        i, j = divmod(p, M)
        for x in range(K):
            if (j and col[p - 1] == x) or (i and col[p - M] == x):
                continue
            col[p] = x
            rec(p + 1)

    rec(0)
    return len(seen)


# ---------- reference: Burnside, each fixed-point count a folded row-transfer count ----------

def reference(N, M, K, mode):
    rows = [r for r in product(range(K), repeat=M) if all(r[j] != r[j + 1] for j in range(M - 1))]
    ok = lambda a, b: all(x != y for x, y in zip(a, b))

    def paths(states, length, end):
        if not states:
            return 0
        succ = [[j for j, b in enumerate(states) if ok(a, b)] for a in states]
        cur = [1] * len(states)
        for _ in range(length - 1):
            nxt = [0] * len(states)
            for i, v in enumerate(cur):
                for j in succ[i]:
                    nxt[j] += v
            cur = nxt
        return sum(v * end(states[i]) for i, v in enumerate(cur))

    def fix(move, pi):
        if move == 0:
            return paths([r for r in rows if all(pi[x] == x for x in r)], N, lambda r: 1)
        if move == 1:
            return paths([r for r in rows if tuple(pi[x] for x in r) == r[::-1]], N, lambda r: 1)
        img = (lambda r: tuple(pi[x] for x in r)) if move == 2 else (lambda r: tuple(pi[x] for x in r[::-1]))
        top = [r for r in rows if img(img(r)) == r]
        middle = [s for s in rows if img(s) == s]
        half = N // 2
        if N % 2 == 0:
            return paths(top, half, lambda r: int(ok(r, img(r))))
        if half == 0:
            return len(middle)
        return paths(top, half, lambda r: sum(1 for s in middle if ok(r, s) and ok(s, img(r))))

    perms = [tuple(range(K))] if mode == "labelled" else list(permutations(range(K)))
    memo = {}
    total = 0
    for pi in perms:
        cyc = []
        left = set(range(K))
        while left:
            x = min(left)
            n = 0
            while x in left:
                left.discard(x)
                x = pi[x]
                n += 1
            cyc.append(n)
        key = tuple(sorted(cyc))
        if key not in memo:
            memo[key] = sum(fix(m, pi) for m in range(4))
        total += memo[key]
    assert total % (4 * len(perms)) == 0
    return total // (4 * len(perms))


def run(queries):
    text = "\n".join(f"{n} {m} {k} {mode}" for n, m, k, mode in queries) + "\n"
    proc = subprocess.run(PROG, input=text, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = [ln.strip() for ln in proc.stdout.split("\n") if ln.strip()]
    assert len(out) == len(queries), f"expected {len(queries)} lines, got {len(out)}: {out[:5]}"
    return out


def check(queries, fn):
    got = run(queries)
    bad = []
    for q, g in zip(queries, got):
        want = str(fn(*q))
        if g != want:
            bad.append(f"{q}: expected {want}, got {g}")
    assert not bad, "\n".join(bad[:8])


def test_example():
    text = open("/app/examples/queries.txt").read()
    proc = subprocess.run(PROG, input=text, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["6", "2", "96", "17", "11", "1", "0"]


def test_small_panels_against_brute_force():
    rng = random.Random(7101)
    qs = []
    for n in range(1, 5):
        for m in range(1, 5):
            for k in range(2, 5):
                if (k - 1) ** (n * m) * k <= 60000:
                    qs.append((n, m, k, rng.choice(["labelled", "pattern"])))
    rng.shuffle(qs)
    check(qs, brute)


def test_square_panels_have_no_quarter_turns():
    qs = [(2, 2, 4, "labelled"), (2, 2, 4, "pattern"), (3, 3, 4, "labelled"), (3, 3, 4, "pattern"),
          (4, 4, 3, "labelled"), (4, 4, 3, "pattern"), (3, 3, 2, "pattern"), (4, 4, 2, "labelled")]
    check(qs, brute)


def test_degenerate_sizes_and_colours():
    qs = [(1, 1, 1, "pattern"), (1, 2, 1, "labelled"), (3, 1, 1, "pattern"), (1, 1, 5, "labelled"),
          (1, 1, 5, "pattern"), (1, 4, 5, "labelled"), (1, 4, 5, "pattern"), (7, 1, 2, "labelled"),
          (8, 1, 2, "pattern"), (100, 1, 3, "pattern"), (99, 1, 4, "labelled"), (100, 4, 2, "labelled"),
          (99, 3, 2, "pattern"), (5, 4, 1, "labelled")]
    check(qs, reference)
    check([q for q in qs if q[0] * q[1] <= 8], brute)


def test_labelled_large_panels():
    rng = random.Random(7102)
    qs = []
    for _ in range(10):
        qs.append((rng.randint(5, 100), rng.randint(2, 4), rng.randint(3, 5), "labelled"))
    qs += [(64, 4, 3, "labelled"), (63, 4, 3, "labelled"), (50, 3, 5, "labelled"), (51, 2, 5, "labelled")]
    check(qs, reference)


def test_pattern_large_panels():
    rng = random.Random(7103)
    qs = []
    for _ in range(8):
        qs.append((rng.randint(5, 100), rng.randint(2, 4), rng.randint(3, 5), "pattern"))
    qs += [(40, 4, 4, "pattern"), (41, 4, 4, "pattern"), (30, 3, 3, "pattern"), (31, 3, 5, "pattern")]
    check(qs, reference)


def test_both_modes_mixed_in_one_run_at_the_largest_sizes():
    qs = [(100, 4, 5, "pattern"), (99, 4, 4, "labelled"), (100, 3, 4, "pattern"), (97, 2, 5, "pattern")]
    check(qs, reference)
