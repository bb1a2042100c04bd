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


def run(nums, cpu_limit=60):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("".join(f"{n}\n" for n in nums))
    try:
        proc, elapsed = run_cpu(["python3", "/app/power.py", fh.name], cpu_limit, "power.py", text=True)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = [tuple(map(int, l.split())) for l in proc.stdout.splitlines() if l.strip()]
    assert len(out) == len(nums)
    return out, elapsed


def is_power(n, b):
    lo, hi = 1, 1 << (n.bit_length() // b + 1)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if mid ** b <= n:
            lo = mid
        else:
            hi = mid - 1
    return lo ** b == n


def best(n):
    if n == 1:
        return (1, 1)
    for b in range(n.bit_length(), 1, -1):
        if is_power(n, b):
            lo, hi = 1, 1 << (n.bit_length() // b + 1)
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if mid ** b <= n:
                    lo = mid
                else:
                    hi = mid - 1
            return (lo, b)
    return (n, 1)


def test_example():
    out, _ = run([64, 12, 1, 10**30, 3486784401])
    assert out == [(2, 6), (12, 1), (1, 1), (10, 30), (3, 20)]


def test_large_exact_powers():
    rng = random.Random(1)
    nums, want = [], []
    for _ in range(300):
        b = rng.randint(2, 12)
        a = rng.randint(2, int(10 ** (60 / b)))
        n = a ** b
        if n > 10**60:
            continue
        nums.append(n)
        want.append(best(n))
    out, _ = run(nums)
    assert out == want


def test_near_misses():
    rng = random.Random(2)
    nums = []
    for _ in range(200):
        b = rng.randint(2, 7)
        a = rng.randint(10**6, int(10 ** (59 / b)))
        nums.append(a ** b + rng.choice([-1, 1]))
    out, _ = run(nums)
    assert out == [best(n) for n in nums]


def test_maximal_exponent_and_small():
    nums = [2**60, 6**36, 2**199, 3**125, 10**60, 999999999999**5, 2, 3, 4, 8, 16, 36, 72, 10**60 - 1]
    out, _ = run(nums)
    assert out == [best(n) for n in nums]
    assert out[0] == (2, 60) and out[1] == (6, 36) and out[2] == (2, 199)


def test_speed():
    rng = random.Random(3)
    nums = [rng.randint(1, 10**60) for _ in range(3000)]
    out, elapsed = run(nums, cpu_limit=42)
    assert elapsed < 40
    sample = list(range(0, 3000, 100))
    assert [out[i] for i in sample] == [best(nums[i]) for i in sample]
