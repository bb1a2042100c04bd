import os
import random
import resource
import signal
import subprocess
import tempfile
from collections import deque


# Speed limits measure CPU time, not wall-clock time: other work on the machine stretches the second,
# never the first. numpy is held to one thread so that its thread pool cannot add CPU time of its own.
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
HANG_GUARD_S = 600   # wall-clock: only stops a program that blocks without using CPU


def run_cpu(cmd, cpu_limit, name):
    """Run ``cmd``; return (completed process, CPU seconds it used: user + system, from getrusage).
    RLIMIT_CPU stops it once it has used ``cpu_limit`` seconds of CPU."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=HANG_GUARD_S, preexec_fn=limit,
                          env={**os.environ, **ONE_THREAD})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert proc.returncode != -signal.SIGXCPU, f"{name} used more than {cpu_limit} s of CPU time"
    return proc, cpu

GOAL = "123456780"


def step(s, m):
    z = s.index("0")
    r, c = divmod(z, 3)
    d = {"U": -3, "D": 3, "L": -1, "R": 1}[m]
    if (m == "U" and r == 0) or (m == "D" and r == 2) or (m == "L" and c == 0) or (m == "R" and c == 2):
        return None
    l = list(s)
    l[z], l[z + d] = l[z + d], l[z]
    return "".join(l)


def distances():
    dist = {GOAL: 0}
    q = deque([GOAL])
    while q:
        s = q.popleft()
        for m in "UDLR":
            t = step(s, m)
            if t is not None and t not in dist:
                dist[t] = dist[s] + 1
                q.append(t)
    return dist


DIST = distances()
SOLVABLE = sorted(DIST)


def run(puzzles):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("\n".join(puzzles) + "\n")
    try:
        proc, elapsed = run_cpu(["python3", "/app/slide.py", fh.name], 65, "slide.py")
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.split("\n")
    assert len(lines) >= len(puzzles)
    return [l.strip() for l in lines[:len(puzzles)]], elapsed


def check(puzzles, out):
    for p, ans in zip(puzzles, out):
        if p not in DIST:
            assert ans == "UNSOLVABLE", p
            continue
        assert set(ans) <= set("UDLR"), (p, ans)
        s = p
        for m in ans:
            s = step(s, m)
            assert s is not None, (p, ans)
        assert s == GOAL, (p, ans)
        assert len(ans) == DIST[p], (p, ans, DIST[p])


def test_example():
    out, _ = run(["123456708", "123456078", "123405786", "213456780"])
    assert out[0] == "R" and out[1] == "RR" and out[3] == "UNSOLVABLE"
    check(["123405786"], [out[2]])


def test_solved_board_gives_empty_line():
    out, _ = run([GOAL, "123456708"])
    assert out == ["", "R"]


def test_hardest_boards():
    far = [s for s, d in DIST.items() if d == 31]
    out, _ = run(far)
    check(far, out)


def test_random_mix_fast():
    rng = random.Random(606)
    puzzles = [rng.choice(SOLVABLE) for _ in range(240)]
    for _ in range(60):
        while True:
            l = list(GOAL)
            rng.shuffle(l)
            s = "".join(l)
            if s not in DIST:
                puzzles.append(s)
                break
    rng.shuffle(puzzles)
    out, elapsed = run(puzzles)
    check(puzzles, out)
    assert elapsed < 60, elapsed   # CPU seconds; the limit is 30 s, the margin is for a slower CPU


def test_deep_boards_optimal():
    rng = random.Random(707)
    deep = rng.sample([s for s, d in DIST.items() if 24 <= d <= 30], 40)
    out, _ = run(deep)
    check(deep, out)
