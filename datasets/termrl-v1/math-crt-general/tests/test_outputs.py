import math
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


def run(systems, cpu_limit=60):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("".join(" ".join(f"{r} {m}" for r, m in s) + "\n" for s in systems))
    try:
        proc, elapsed = run_cpu(["python3", "/app/crt.py", fh.name], cpu_limit, "crt.py", text=True)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = [l.strip() for l in proc.stdout.splitlines() if l.strip()]
    assert len(out) == len(systems)
    return out, elapsed


def lcm_all(ms):
    l = 1
    for m in ms:
        l = l * m // math.gcd(l, m)
    return l


def check_solvable(system, line):
    M = lcm_all([m for _, m in system])
    parts = line.split()
    assert len(parts) == 2, line
    x, got_m = int(parts[0]), int(parts[1])
    assert got_m == M
    assert 0 <= x < M
    for r, m in system:
        assert (x - r) % m == 0


def test_example():
    out, _ = run([[(2, 3), (3, 5), (2, 7)], [(1, 4), (3, 6)], [(3, 4), (4, 6)], [(0, 1)]])
    assert out == ["23 105", "9 12", "NONE", "0 1"]


def test_constructed_non_coprime_systems():
    rng = random.Random(4)
    systems = []
    for _ in range(300):
        base = [rng.choice([2, 3, 5, 7, 11, 13, 9973, 10**9 + 7]) for _ in range(4)]
        ms = []
        for _ in range(rng.randint(1, 8)):
            m = 1
            for b in rng.sample(base, rng.randint(1, 4)):
                m *= b ** rng.randint(1, 3)
            ms.append(m)
        x = rng.randrange(lcm_all(ms))
        system = [(x % m + m * rng.randint(-10**9, 10**9), m) for m in ms]
        systems.append(system)
    out, _ = run(systems)
    for s, line in zip(systems, out):
        check_solvable(s, line)


def test_inconsistent_systems():
    rng = random.Random(8)
    systems = []
    for _ in range(100):
        g = rng.choice([2, 6, 10**6, 2**40])
        a, b = g * rng.randint(1, 10**6), g * rng.randint(1, 10**6)
        r = rng.randrange(10**12)
        systems.append([(r, a), (r + rng.randrange(1, g), b)])
    out, _ = run(systems)
    assert out == ["NONE"] * 100


def test_huge_values_and_speed():
    rng = random.Random(15)
    systems = []
    for _ in range(1000):
        ms = [rng.randint(1, 10**30) for _ in range(rng.randint(1, 50))]
        if rng.random() < 0.5:
            x = rng.randrange(10**40)
            systems.append([(x % m - m * rng.randint(0, 10**9), m) for m in ms])
        else:
            systems.append([(rng.randint(-10**40, 10**40), m) for m in ms])
    out, elapsed = run(systems, cpu_limit=12)
    assert elapsed < 10
    for s, line in zip(systems, out):
        M = lcm_all([m for _, m in s])
        # decide solvability independently by pairwise gcd conditions
        solvable = all((r1 - r2) % math.gcd(m1, m2) == 0 for i, (r1, m1) in enumerate(s) for (r2, m2) in s[i + 1:])
        if solvable:
            check_solvable(s, line)
        else:
            assert line == "NONE"


def test_normalisation_of_single_congruences():
    out, _ = run([[(-1, 5)], [(17, 1)], [(10**40, 10**30)], [(-10**40 - 3, 7)], [(5, 10), (5, 10)]])
    assert out == ["4 5", "0 1", f"0 {10**30}", f"{(-10**40 - 3) % 7} 7", "5 10"]
