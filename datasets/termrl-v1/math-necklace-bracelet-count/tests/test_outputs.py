import itertools
import os
import random
import subprocess
import tempfile
import time
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

P = 1_000_000_007


def brute(n, k):
    neck, brace = set(), set()
    for s in itertools.product(range(k), repeat=n):
        rots = [s[i:] + s[:i] for i in range(n)]
        neck.add(min(rots))
        r = s[::-1]
        brace.add(min(rots + [r[i:] + r[:i] for i in range(n)]))
    return len(neck), len(brace)


def exact(n, k):
    """Exact (big integer) counts via the plain Burnside sums — only for moderate n."""
    s = sum(k ** gcd(i, n) for i in range(n))
    neck = s // n
    if n % 2:
        refl = n * k ** ((n + 1) // 2)
    else:
        refl = n // 2 * (k ** (n // 2 + 1) + k ** (n // 2))
    return neck, (s + refl) // (2 * n)


def reference(n, k):
    """Modular reference for huge n: divisor sum modulo 4nP."""
    fs, m, d = {}, n, 2
    while d * d <= m:
        while m % d == 0:
            fs[d] = fs.get(d, 0) + 1
            m //= d
        d += 1
    if m > 1:
        fs[m] = fs.get(m, 0) + 1
    divs = [(1, 1)]
    for p, e in fs.items():
        divs = [(x * p ** i, ph * (p ** i - p ** (i - 1) if i else 1)) for x, ph in divs for i in range(e + 1)]
    M = 4 * n * P
    S = sum(ph * pow(k, n // x, M) for x, ph in divs) % M
    if n % 2:
        T = (2 * S + 2 * n * pow(k, (n + 1) // 2, M)) % M
    else:
        T = (2 * S + n * (k + 1) * pow(k, n // 2, M)) % M
    return (S // n) % P if S % n == 0 else None, T // (4 * n) % P


def run(queries, cpu_limit=90):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("".join(f"{n} {k}\n" for n, k in queries))
    try:
        proc, elapsed = run_cpu(["python3", "/app/count.py", fh.name], cpu_limit, "count.py", text=True)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = [tuple(map(int, l.split())) for l in proc.stdout.splitlines() if l.strip()]
    assert len(out) == len(queries)
    return out, elapsed


def test_example():
    out, _ = run([(4, 2), (6, 3), (5, 1)])
    assert out == [(6, 6), (130, 92), (1, 1)]


def test_small_bruteforce():
    qs = [(n, k) for n in range(1, 9) for k in (1, 2, 3)] + [(9, 2), (10, 2), (5, 4), (6, 4)]
    out, _ = run(qs)
    for q, o in zip(qs, out):
        assert o == brute(*q), q


def test_moderate_exact():
    rng = random.Random(3)
    qs = [(rng.randint(10, 400), rng.randint(2, 10**18)) for _ in range(25)]
    out, _ = run(qs)
    for (n, k), o in zip(qs, out):
        a, b = exact(n, k)
        assert o == (a % P, b % P), (n, k)


def test_n_divisible_by_modulus():
    qs = [(P, 2), (2 * P, 3), (6 * P, 10**18), (998 * P, 7), (P, P + 5), (4 * P, P)]
    out, _ = run(qs)
    for (n, k), o in zip(qs, out):
        ref = reference(n, k)
        assert o == ref, (n, k)
    # a case small enough to cross-check exactly is impossible for n >= P, so also check
    # the structure: for k = 1 both counts are 1
    out1, _ = run([(3 * P, 1)])
    assert out1 == [(1, 1)]


def test_large_random_fast():
    rng = random.Random(4)
    qs = []
    for _ in range(150):
        n = rng.choice([rng.randint(1, 10**12), 2 ** rng.randint(1, 39), 720720 * rng.randint(1, 10**6),
                        999983 * 1000003])
        qs.append((n, rng.randint(1, 10**18)))
    out, elapsed = run(qs, cpu_limit=62)
    assert elapsed < 60
    for q, o in zip(qs, out):
        assert o == reference(*q), q
