import itertools
import os
import random
import subprocess
import tempfile
import time
from fractions import Fraction
from math import gcd
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


def run(M, cpu_limit=60):
    m, n = len(M), len(M[0])
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(f"{m} {n}\n" + "\n".join(" ".join(map(str, r)) for r in M) + "\n")
    try:
        proc, elapsed = run_cpu(["python3", "/app/snf.py", fh.name], cpu_limit, "snf.py", text=True)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout.strip()
    return (out if out == "ZERO" else [int(v) for v in out.split()]), elapsed


def det(M):
    """Integer determinant by Bareiss."""
    A = [r[:] for r in M]
    n = len(A)
    sign, prev = 1, 1
    for k in range(n - 1):
        if A[k][k] == 0:
            sw = next((i for i in range(k + 1, n) if A[i][k]), None)
            if sw is None:
                return 0
            A[k], A[sw] = A[sw], A[k]
            sign = -sign
        for i in range(k + 1, n):
            for j in range(k + 1, n):
                A[i][j] = (A[i][j] * A[k][k] - A[i][k] * A[k][j]) // prev
        prev = A[k][k]
    return sign * A[-1][-1]


def rank(M):
    A = [[Fraction(v) for v in r] for r in M]
    r = 0
    for c in range(len(A[0])):
        p = next((i for i in range(r, len(A)) if A[i][c]), None)
        if p is None:
            continue
        A[r], A[p] = A[p], A[r]
        for i in range(len(A)):
            if i != r and A[i][c]:
                f = A[i][c] / A[r][c]
                A[i] = [a - f * b for a, b in zip(A[i], A[r])]
        r += 1
    return r


def by_minors(M):
    """Invariant factors from determinantal divisors (small matrices only)."""
    m, n = len(M), len(M[0])
    dets = [1]
    for k in range(1, min(m, n) + 1):
        g = 0
        for rows in itertools.combinations(range(m), k):
            for cols in itertools.combinations(range(n), k):
                g = gcd(g, det([[M[i][j] for j in cols] for i in rows]))
        if g == 0:
            break
        dets.append(g)
    inv = [dets[k] // dets[k - 1] for k in range(1, len(dets))]
    return inv or "ZERO"


def unimodular(rng, n, steps):
    U = [[int(i == j) for j in range(n)] for i in range(n)]
    for _ in range(steps):
        i, j = rng.sample(range(n), 2)
        q = rng.randint(-3, 3)
        U[i] = [a + q * b for a, b in zip(U[i], U[j])]
    return U


def matmul(A, B):
    return [[sum(a * b for a, b in zip(row, col)) for col in zip(*B)] for row in A]


def test_example():
    assert run([[2, 4, 4], [-6, 6, 12], [10, -4, -16]])[0] == [2, 6, 12]


def test_small_against_determinantal_divisors():
    rng = random.Random(1)
    for _ in range(40):
        m, n = rng.randint(1, 4), rng.randint(1, 4)
        M = [[rng.choice([0, 0, rng.randint(-12, 12)]) for _ in range(n)] for _ in range(m)]
        assert run(M)[0] == by_minors(M), M


def test_constructed_unimodular_products():
    rng = random.Random(2)
    for n, diag in [(5, [1, 2, 6, 30, 0]), (6, [3, 3, 9, 18, 36, 72]), (8, [1, 1, 1, 4, 4, 8, 0, 0])]:
        D = [[diag[i] if i == j else 0 for j in range(n)] for i in range(n)]
        M = matmul(matmul(unimodular(rng, n, 40), D), unimodular(rng, n, 40))
        want = [d for d in diag if d]
        assert run(M)[0] == want


def test_zero_and_rectangular():
    assert run([[0, 0, 0], [0, 0, 0]])[0] == "ZERO"
    assert run([[4, 6, 10]])[0] == [2]
    assert run([[4], [6], [9]])[0] == [1]


def test_large_random_properties_and_speed():
    rng = random.Random(3)
    for m, n in [(30, 30), (20, 28), (30, 12)]:
        M = [[rng.randint(-10**6, 10**6) for _ in range(n)] for _ in range(m)]
        # plant structure: a few rows are combinations of others, and all entries share a factor 6 in one case
        if m == 20:
            M = [[6 * v for v in row] for row in M]
            M[5] = [a + 2 * b for a, b in zip(M[1], M[2])]
        inv, elapsed = run(M, cpu_limit=22)
        assert elapsed < 20
        assert len(inv) == rank(M)
        assert all(d > 0 for d in inv) and all(inv[i + 1] % inv[i] == 0 for i in range(len(inv) - 1))
        g = 0
        for row in M:
            for v in row:
                g = gcd(g, v)
        assert inv[0] == g
        if m == n:
            prod = 1
            for d in inv:
                prod *= d
            assert prod == abs(det(M))
