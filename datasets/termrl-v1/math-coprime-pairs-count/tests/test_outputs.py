import math
import random
import resource
import subprocess
import sys
import time

import pytest

sys.path.insert(0, "/tests")
import ref_count  # noqa: E402


def cpu_seconds():
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def run(pairs, tmp_path, timeout=400):
    f = tmp_path / "q.txt"
    f.write_text(f"{len(pairs)}\n" + "\n".join(f"{a} {b}" for a, b in pairs) + "\n")
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    before = kids.ru_utime + kids.ru_stime
    r = subprocess.run([sys.executable, "/app/coprime.py", str(f)], capture_output=True, text=True, timeout=timeout)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert r.returncode == 0, r.stderr[-2000:]
    return [int(x) for x in r.stdout.split()], kids.ru_utime + kids.ru_stime - before


def reference(pairs):
    M = ref_count.Mertens(max(min(a, b) for a, b in pairs))
    return [ref_count.count(a, b, M) for a, b in pairs]


def brute(a, b):
    return sum(1 for x in range(1, a + 1) for y in range(1, b + 1) if math.gcd(x, y) == 1)


def test_examples(tmp_path):
    got, _ = run([(4, 4), (10, 3), (1, 7)], tmp_path)
    assert got == [11, 22, 7]


def test_small_hidden_against_brute_force(tmp_path):
    rng = random.Random(99)
    pairs = [(rng.randrange(1, 150), rng.randrange(1, 150)) for _ in range(10)]
    got, _ = run(pairs, tmp_path)
    assert got == [brute(a, b) for a, b in pairs]


def test_thin_and_lopsided_rectangles(tmp_path):
    pairs = [(1, 10 ** 9), (10 ** 9, 1), (2, 999999999), (97, 10 ** 9), (10 ** 9, 3), (360, 360360),
             (1, 1), (6, 10)]
    got, _ = run(pairs, tmp_path)
    assert got == reference(pairs)
    assert got[0] == 10 ** 9 and got[2] == 999999999 + 500000000 and got[6] == 1 and got[7] == 38


def test_medium_hidden(tmp_path):
    rng = random.Random(4242)
    pairs = [(rng.randrange(10 ** 5, 10 ** 7), rng.randrange(10 ** 3, 10 ** 8)) for _ in range(10)]
    got, _ = run(pairs, tmp_path)
    assert got == reference(pairs)


def test_large_hidden_within_cpu_budget(tmp_path):
    rng = random.Random(7)
    pairs = [(10 ** 9, 10 ** 9), (999999937, 10 ** 9 - 1)] + \
            [(rng.randrange(10 ** 8, 10 ** 9), rng.randrange(10 ** 8, 10 ** 9)) for _ in range(8)]
    got, cpu = run(pairs, tmp_path)
    assert got == reference(pairs)
    assert cpu <= 60, f"used {cpu:.1f} s of CPU time for 10 queries"
