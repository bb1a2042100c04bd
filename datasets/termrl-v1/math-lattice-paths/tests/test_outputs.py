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

MOD = 998244353


def run(text, cpu_limit=20):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(text)
    try:
        proc, elapsed = run_cpu(["python3", "/app/paths.py", fh.name], cpu_limit, "paths.py", text=True)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return int(proc.stdout.strip()), elapsed


def fmt(W, H, pts):
    return f"{W} {H} {len(pts)}\n" + "".join(f"{x} {y}\n" for x, y in pts)


def brute(W, H, pts):
    blocked = set(pts)
    dp = [[0] * (W + 1) for _ in range(H + 1)]
    for y in range(H + 1):
        for x in range(W + 1):
            if (x, y) in blocked:
                continue
            if x == 0 and y == 0:
                dp[y][x] = 1
                continue
            dp[y][x] = ((dp[y][x - 1] if x else 0) + (dp[y - 1][x] if y else 0)) % MOD
    return dp[H][W]


def reference(W, H, pts):
    pts = sorted({p for p in pts if 0 <= p[0] <= W and 0 <= p[1] <= H})
    n = W + H
    fact = [1] * (n + 1)
    for i in range(1, n + 1):
        fact[i] = fact[i - 1] * i % MOD
    inv = [1] * (n + 1)
    inv[n] = pow(fact[n], MOD - 2, MOD)
    for i in range(n, 0, -1):
        inv[i - 1] = inv[i] * i % MOD

    def c(dx, dy):
        if dx < 0 or dy < 0:
            return 0
        return fact[dx + dy] * inv[dx] % MOD * inv[dy] % MOD

    f = []
    for i, (x, y) in enumerate(pts):
        v = c(x, y)
        for j in range(i):
            px, py = pts[j]
            if px <= x and py <= y:
                v -= f[j] * c(x - px, y - py)
        f.append(v % MOD)
    ans = c(W, H)
    for (x, y), v in zip(pts, f):
        ans -= v * c(W - x, H - y)
    return ans % MOD


def test_small_random_against_bruteforce():
    rng = random.Random(20251)
    for _ in range(25):
        W, H = rng.randint(1, 9), rng.randint(1, 9)
        pts = [(rng.randint(0, W), rng.randint(0, H)) for _ in range(rng.randint(0, 8))]
        pts = [p for p in pts if p not in ((0, 0), (W, H))]
        got, _ = run(fmt(W, H, pts))
        assert got == brute(W, H, pts), (W, H, pts)


def test_blocked_endpoints_give_zero():
    assert run(fmt(5, 7, [(2, 3), (0, 0)]))[0] == 0
    assert run(fmt(5, 7, [(5, 7), (1, 1)]))[0] == 0


def test_duplicates_and_outside_points():
    rng = random.Random(77)
    for _ in range(10):
        W, H = rng.randint(2, 10), rng.randint(2, 10)
        inside = [(rng.randint(0, W), rng.randint(0, H)) for _ in range(5)]
        inside = [p for p in inside if p not in ((0, 0), (W, H))]
        outside = [(-1, 2), (W + 1, 0), (3, H + 4), (-10**9, 10**9), (W, -1), (10**9, -10**9)]
        pts = inside + inside[:2] + outside
        rng.shuffle(pts)
        got, _ = run(fmt(W, H, pts))
        assert got == brute(W, H, inside), (W, H, pts)


def test_no_obstacles_large():
    got, _ = run(fmt(1000000, 999999, []), cpu_limit=60)
    assert got == reference(1000000, 999999, [])


def test_wall_blocks_everything():
    pts = [(i, 1000 - i) for i in range(1001)]
    random.Random(5).shuffle(pts)
    assert run(fmt(300000, 200000, pts))[0] == 0


def test_large_random_within_time():
    rng = random.Random(424242)
    W, H = 1000000, 1000000
    pts = [(rng.randint(0, W), rng.randint(0, H)) for _ in range(1300)]
    # many points close together so that the interactions matter
    pts += [(500000 + rng.randint(0, 40), 500000 + rng.randint(0, 40)) for _ in range(200)]
    rng.shuffle(pts)
    # the limit is 20 s; the test allows slack for a loaded machine
    got, elapsed = run(fmt(W, H, pts), cpu_limit=60)
    assert got == reference(W, H, pts)


def test_examples():
    assert run(open("/app/examples/small.txt").read())[0] == 8
    assert run(open("/app/examples/outside.txt").read())[0] == 2
