import os
import random
import re
import subprocess
import tempfile
from fractions import Fraction

NUM = re.compile(r"^-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?$")


def solve(m, n, A, b, raw=None):
    if raw is None:
        lines = [f"{m} {n}"]
        for i in range(m):
            lines.append(" ".join(tok(v) for v in A[i] + [b[i]]))
        raw = "\n".join(lines) + "\n"
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(raw)
    try:
        proc = subprocess.run(["python3", "/app/linsolve.py", fh.name], capture_output=True, text=True, timeout=300)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def tok(v):
    v = Fraction(v)
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def parse_num(s):
    assert NUM.match(s), f"badly formatted number {s!r}"
    v = Fraction(s)
    if "/" in s:
        p, q = s.split("/")
        assert int(q) >= 2 and v.denominator == int(q), f"{s!r} is not in lowest terms / should be an integer"
    return v


def rank(rows):
    rows = [list(map(Fraction, r)) for r in rows]
    if not rows:
        return 0
    rk, cols = 0, len(rows[0])
    for c in range(cols):
        p = next((i for i in range(rk, len(rows)) if rows[i][c] != 0), None)
        if p is None:
            continue
        rows[rk], rows[p] = rows[p], rows[rk]
        for i in range(rk + 1, len(rows)):
            if rows[i][c] != 0:
                f = rows[i][c] / rows[rk][c]
                rows[i] = [a - f * q for a, q in zip(rows[i], rows[rk])]
        rk += 1
    return rk


def check(m, n, A, b, out=None):
    """Checks the program's answer against the exact truth computed here; returns the parsed answer."""
    if out is None:
        out = solve(m, n, A, b)
    lines = out.strip("\n").split("\n")
    rA = rank(A)
    rAb = rank([A[i] + [b[i]] for i in range(m)])
    if rAb > rA:
        assert lines == ["NONE"], f"system is inconsistent, got {out[:300]!r}"
        return None
    d = n - rA
    assert lines[0] == f"SOLUTION {d}", f"expected SOLUTION {d}, got {lines[0]!r}"
    assert len(lines) == 2 + d, f"expected {2 + d} lines, got {len(lines)}"
    vecs = []
    for ln in lines[1:]:
        parts = ln.split(" ")
        assert len(parts) == n, f"expected {n} numbers in {ln[:200]!r}"
        vecs.append([parse_num(p) for p in parts])
    x0, basis = vecs[0], vecs[1:]
    for i in range(m):
        assert sum(A[i][j] * x0[j] for j in range(n)) == b[i], f"particular solution fails equation {i}"
        for v in basis:
            assert sum(A[i][j] * v[j] for j in range(n)) == 0, f"basis vector not in the null space (eq {i})"
    assert rank(basis) == d, "basis vectors are not linearly independent"
    return x0, basis


def rand_frac(rng, big=20, den=6):
    return Fraction(rng.randint(-big, big), rng.randint(1, den))


def low_rank(rng, m, n, r, fracs=True):
    L = [[rand_frac(rng) if fracs else Fraction(rng.randint(-5, 5)) for _ in range(r)] for _ in range(m)]
    R = [[Fraction(rng.randint(-4, 4)) for _ in range(n)] for _ in range(r)]
    return [[sum(L[i][k] * R[k][j] for k in range(r)) for j in range(n)] for i in range(m)]


def test_examples():
    assert solve(0, 0, None, None, raw=open("/app/examples/square.txt").read()).split() == ["SOLUTION", "0", "2", "1"]
    assert solve(0, 0, None, None, raw=open("/app/examples/none.txt").read()).strip() == "NONE"
    out = solve(0, 0, None, None, raw=open("/app/examples/plane.txt").read())
    check(1, 3, [[Fraction(1, 2), Fraction(-1), Fraction(2)]], [Fraction(4)], out)


def test_unique_solutions_random_square():
    rng = random.Random(7301)
    for _ in range(25):
        n = rng.randint(1, 9)
        while True:
            A = [[rand_frac(rng) for _ in range(n)] for _ in range(n)]
            if rank(A) == n:
                break
        b = [rand_frac(rng) for _ in range(n)]
        x0, basis = check(n, n, A, b)
        assert basis == []


def test_underdetermined_and_rank_deficient_consistent():
    rng = random.Random(7302)
    for _ in range(30):
        m, n = rng.randint(1, 9), rng.randint(1, 9)
        r = rng.randint(0, min(m, n))
        A = low_rank(rng, m, n, r) if r else [[Fraction(0)] * n for _ in range(m)]
        xt = [rand_frac(rng) for _ in range(n)]
        b = [sum(A[i][j] * xt[j] for j in range(n)) for i in range(m)]
        check(m, n, A, b)


def test_inconsistent_systems():
    rng = random.Random(7303)
    seen = 0
    for _ in range(30):
        m = rng.randint(2, 9)
        n = rng.randint(1, 9)
        r = rng.randint(1, min(m - 1, n))
        A = low_rank(rng, m, n, r)
        b = [rand_frac(rng) for _ in range(m)]
        if rank([A[i] + [b[i]] for i in range(m)]) > rank(A):
            seen += 1
        check(m, n, A, b)
    assert seen >= 20


def test_hilbert_and_ill_conditioned():
    rng = random.Random(7304)
    for n in (8, 11, 14):
        H = [[Fraction(1, i + j + 1) for j in range(n)] for i in range(n)]
        b = [Fraction(rng.randint(-9, 9)) for _ in range(n)]
        x0, _ = check(n, n, H, b)
        assert max(abs(v) for v in x0) > 10**6
    # nearly dependent rows: a tiny perturbation decides between "unique" and "a line of solutions"
    for _ in range(6):
        n = rng.randint(4, 8)
        A = low_rank(rng, n, n, n - 1, fracs=False)
        eps = Fraction(1, rng.randint(10**5, 10**6))
        A[0][0] += eps
        b = [Fraction(rng.randint(-5, 5)) for _ in range(n)]
        check(n, n, A, b)


def test_number_format_and_unreduced_input():
    raw = "2 3\n6/4 -10/20 0/7 9/6\n2/2 4/8 -3/9 -12/8\n"
    A = [[Fraction(3, 2), Fraction(-1, 2), Fraction(0)], [Fraction(1), Fraction(1, 2), Fraction(-1, 3)]]
    b = [Fraction(3, 2), Fraction(-3, 2)]
    out = solve(0, 0, None, None, raw=raw)
    check(2, 3, A, b, out)
    for t in out.split()[2:]:
        assert not t.endswith("/1") and not t.startswith("+") and t != "-0", t


def test_degenerate_shapes():
    # zero matrix, consistent and inconsistent; a single unknown; more equations than unknowns
    Z = [[Fraction(0)] * 4 for _ in range(3)]
    x0, basis = check(3, 4, Z, [Fraction(0)] * 3)
    assert len(basis) == 4
    assert solve(3, 4, Z, [Fraction(0), Fraction(1, 3), Fraction(0)]).strip() == "NONE"
    check(1, 1, [[Fraction(-3, 7)]], [Fraction(5, 2)])
    check(1, 1, [[Fraction(0)]], [Fraction(0)])
    rng = random.Random(7305)
    for _ in range(8):
        m, n = rng.randint(10, 15), rng.randint(2, 5)
        A = low_rank(rng, m, n, rng.randint(1, n))
        xt = [rand_frac(rng) for _ in range(n)]
        b = [sum(A[i][j] * xt[j] for j in range(n)) for i in range(m)]
        check(m, n, A, b)


def test_full_size_systems():
    rng = random.Random(7306)
    for m, n, r in ((30, 30, 30), (30, 30, 22), (18, 30, 18), (30, 12, 9)):
        A = low_rank(rng, m, n, r) if r < min(m, n) else [[rand_frac(rng, 1000, 50) for _ in range(n)] for _ in range(m)]
        xt = [rand_frac(rng) for _ in range(n)]
        b = [sum(A[i][j] * xt[j] for j in range(n)) for i in range(m)]
        check(m, n, A, b)
