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


def is_prime(n):
    if n < 2:
        return False
    for sp in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % sp == 0:
            return n == sp
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for b in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        x = pow(b, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def random_prime(rng, bits):
    while True:
        n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        if n < 2 ** 62 and is_prime(n):
            return n


def prime_with_twos(rng, k, bits=61):
    while True:
        m = rng.getrandbits(bits - k) | 1
        n = m * 2 ** k + 1
        if n < 2 ** 62 and is_prime(n):
            return n


def run(queries, cpu_limit=60):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("".join(f"{a} {p}\n" for a, p in queries))
    try:
        proc, elapsed = run_cpu(["python3", "/app/modsqrt.py", fh.name], cpu_limit, "modsqrt.py", text=True)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = [l.strip() for l in proc.stdout.splitlines() if l.strip()]
    assert len(out) == len(queries)
    return out, elapsed


def expected_count(a, p):
    if a % p == 0 or p == 2:
        return 1
    return 2 if pow(a, (p - 1) // 2, p) == 1 else 0


def check(queries, out):
    for (a, p), line in zip(queries, out):
        n = expected_count(a, p)
        if n == 0:
            assert line == "NONE", (a, p, line)
            continue
        xs = [int(v) for v in line.split()]
        assert len(xs) == n and xs == sorted(xs), (a, p, line)
        for x in xs:
            assert 0 <= x < p and x * x % p == a % p, (a, p, x)


def test_example():
    out, _ = run([(10, 13), (5, 13), (0, 7), (2, 7), (1, 2)])
    assert out == ["6 7", "NONE", "0", "3 4", "1"]


def test_small_primes_exhaustive():
    qs = [(a, p) for p in (2, 3, 5, 17, 41, 97, 257) for a in range(p)]
    out, _ = run(qs)
    check(qs, out)


def test_primes_one_mod_high_power_of_two():
    rng = random.Random(99)
    qs = []
    for k in (3, 8, 16, 24, 32, 40, 48):
        p = prime_with_twos(rng, k)
        for _ in range(8):
            x = rng.randrange(1, p)
            qs.append((x * x % p, p))
        qs.append((rng.randrange(1, p), p))
    out, _ = run(qs)
    check(qs, out)


def test_large_random_primes_fast():
    rng = random.Random(2024)
    primes = [random_prime(rng, rng.choice([20, 40, 61, 62])) for _ in range(40)]
    qs = []
    for _ in range(2000):
        p = rng.choice(primes)
        a = rng.randrange(p) if rng.random() < 0.5 else pow(rng.randrange(p), 2, p)
        qs.append((a, p))
    out, elapsed = run(qs, cpu_limit=22)
    check(qs, out)
    assert elapsed < 20


def test_non_residues_reported():
    rng = random.Random(5)
    p = prime_with_twos(rng, 20)
    qs = []
    while len(qs) < 30:
        a = rng.randrange(1, p)
        if pow(a, (p - 1) // 2, p) == p - 1:
            qs.append((a, p))
    out, _ = run(qs)
    assert out == ["NONE"] * 30
