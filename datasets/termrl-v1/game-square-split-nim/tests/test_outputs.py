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

N = 1500


def table():
    g = [0] * (N + 1)
    for h in range(1, N + 1):
        opts = {g[h - k * k] for k in range(1, math.isqrt(h) + 1)}
        opts |= {g[a] ^ g[h - a] for a in range(h // 2 + 1, h)}
        m = 0
        while m in opts:
            m += 1
        g[h] = m
    return g


G = table()


def value(heaps):
    x = 0
    for h in heaps:
        x ^= G[h]
    return x


def run(positions, cpu_limit=60):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("".join(" ".join(map(str, p)) + "\n" for p in positions))
    try:
        proc, elapsed = run_cpu(["python3", "/app/game.py", fh.name], cpu_limit, "game.py", text=True)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = [l.split() for l in proc.stdout.splitlines() if l.strip()]
    assert len(out) == len(positions)
    return out, elapsed


def check(positions, out):
    for heaps, ans in zip(positions, out):
        if value(heaps) == 0:
            assert ans == ["SECOND"], (heaps, ans)
            continue
        assert ans[0] == "FIRST" and len(ans) == 4, (heaps, ans)
        i, a, b = int(ans[1]) - 1, int(ans[2]), int(ans[3])
        h = heaps[i]
        if b == 0:
            d = h - a
            assert a >= 0 and d > 0 and math.isqrt(d) ** 2 == d, (heaps, ans)
        else:
            assert a > b > 0 and a + b == h, (heaps, ans)
        after = heaps[:i] + [a, b] + heaps[i + 1:]
        assert value([x for x in after if x]) == 0, (heaps, ans)


def test_example_file():
    positions = [[int(x) for x in l.split()] for l in open("/app/positions.txt") if l.strip()]
    out, _ = run(positions)
    assert out[0] == ["FIRST", "1", "0", "0"]
    check(positions, out)


def test_single_heaps_small():
    positions = [[h] for h in range(1, 80)]
    out, _ = run(positions)
    check(positions, out)


def test_equal_split_not_allowed():
    # positions where allowing equal splits would change the answer
    cands = [[h] for h in range(2, 400, 2)]
    out, _ = run(cands)
    check(cands, out)


def test_random_positions_fast():
    rng = random.Random(31337)
    positions = []
    while len(positions) < 200:
        heaps = [rng.randint(1, N) for _ in range(rng.randint(1, 10))]
        if rng.random() < 0.4:   # make roughly 40 % of them losing for the player to move
            x = value(heaps[:-1])
            cands = [h for h in range(1, N + 1) if G[h] == x]
            if cands:
                heaps[-1] = rng.choice(cands)
        positions.append(heaps)
    out, elapsed = run(positions, cpu_limit=32)
    check(positions, out)
    assert elapsed < 30
    assert sum(o == ["SECOND"] for o in out) >= 40
