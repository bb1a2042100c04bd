import subprocess
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


def run(n, r, c, cpu_limit=30):
    proc, elapsed = run_cpu(["python3", "/app/tour.py", str(n), str(r), str(c)], cpu_limit, "tour.py", text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout.strip()
    if out == "NONE":
        return None, elapsed
    return [tuple(map(int, l.split())) for l in out.splitlines()], elapsed


def valid(n, r, c, path):
    if path is None or len(path) != n * n or path[0] != (r, c):
        return False
    if len(set(path)) != n * n or not all(0 <= a < n and 0 <= b < n for a, b in path):
        return False
    return all(sorted((abs(a1 - a2), abs(b1 - b2))) == [1, 2] for (a1, b1), (a2, b2) in zip(path, path[1:]))


def test_no_tour_boards():
    for n, r, c in [(2, 0, 0), (3, 1, 1), (3, 0, 0), (4, 0, 0), (4, 1, 2)]:
        assert run(n, r, c)[0] is None
    assert run(1, 0, 0)[0] == [(0, 0)]


def test_odd_boards_parity():
    for n, r, c in [(5, 0, 1), (7, 3, 2), (9, 4, 5), (25, 0, 1)]:
        assert run(n, r, c)[0] is None, (n, r, c)


def test_every_start_on_5x5_and_6x6():
    for n in (5, 6):
        for r in range(n):
            for c in range(n):
                if n % 2 == 1 and (r + c) % 2:
                    continue
                path, _ = run(n, r, c)
                assert valid(n, r, c, path), (n, r, c)


def test_7x7_hard_starts():
    for r, c in [(2, 2), (0, 0), (3, 3), (1, 3), (0, 4)]:
        path, _ = run(7, r, c)
        assert valid(7, r, c, path), (r, c)


def test_large_boards_fast():
    for n, r, c in [(8, 0, 0), (16, 7, 3), (30, 0, 0), (29, 14, 14), (30, 13, 22)]:
        path, elapsed = run(n, r, c, cpu_limit=22)
        assert valid(n, r, c, path), (n, r, c)
        assert elapsed < 20
