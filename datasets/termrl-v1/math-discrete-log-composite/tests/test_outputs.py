import random
import resource
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import gen_dlog  # noqa: E402
import ref_dlog  # noqa: E402


def run(triples, tmp_path):
    f = tmp_path / "q.txt"
    f.write_text(f"{len(triples)}\n" + "\n".join(f"{a} {b} {n}" for a, b, n in triples) + "\n")
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    before = kids.ru_utime + kids.ru_stime
    r = subprocess.run([sys.executable, "/app/dlog.py", str(f)], capture_output=True, text=True, timeout=300)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert r.returncode == 0, r.stderr[-2000:]
    return [int(x) for x in r.stdout.split()], kids.ru_utime + kids.ru_stime - before


def brute(a, b, n):
    seen, cur, x = set(), 1 % n, 0
    while cur not in seen:
        if cur == b % n:
            return x
        seen.add(cur)
        cur = cur * a % n
        x += 1
    return -1


def test_examples(tmp_path):
    got, _ = run([(2, 8, 11), (3, 1, 7), (2, 3, 7), (0, 0, 5), (6, 0, 36), (3, 5, 8), (5, 4, 1), (10, 1000, 10 ** 6)],
                 tmp_path)
    assert got == [3, 0, -1, 1, 2, -1, 0, 3]


def test_small_moduli_against_brute_force(tmp_path):
    rng = random.Random(11)
    triples = []
    for n in [8, 16, 32, 64, 72, 96, 100, 128, 243, 360, 512, 720, 1024, 1500, 2048, 2310]:
        a = rng.randrange(n)
        triples.append((a, pow(a, rng.randrange(50), n) if rng.random() < 0.6 else rng.randrange(n), n))
    triples += [(3, 5, 16), (5, 3, 16), (7, 15, 32), (2, 0, 64), (2, 32, 64), (6, 36, 216), (12, 0, 72), (7, 17, 96),
                (13, 5, 96), (1, 3, 8), (4, 32, 96)]
    got, _ = run(triples, tmp_path)
    assert got == [brute(a, b, n) for a, b, n in triples]


@pytest.mark.parametrize("kind,seed", [("prime", 21), ("two", 22), ("powers", 23), ("mixed", 24)])
def test_hidden_instances(tmp_path, kind, seed):
    rng = random.Random(seed)
    triples = [gen_dlog.instance(rng, kind) for _ in range(10)]
    want = [ref_dlog.dlog(a, b, n) for a, b, n in triples]
    got, _ = run(triples, tmp_path)
    for (a, b, n), g, w in zip(triples, got, want):
        assert g == w, f"a={a} b={b} n={n}: got {g}, expected {w}"


def test_trivial_component(tmp_path):
    # a = 1 modulo one prime-power factor of n: b must be 1 there too
    rng = random.Random(41)
    triples = []
    for q1, q2 in [(2 ** 20, 99991), (3 ** 3 * 5, 2 ** 17), (65537, 7919 ** 2), (1000000007, 2 ** 9)]:
        n = q1 * q2
        for want_member in (True, False):
            a = ref_dlog.crt(rng.randrange(q1), q1, 1, q2)[0]
            b = pow(a, rng.randrange(10 ** 9), n)
            if not want_member:
                b = ref_dlog.crt(b % q1, q1, rng.randrange(2, q2), q2)[0]
            triples.append((a, b, n))
    want = [ref_dlog.dlog(a, b, n) for a, b, n in triples]
    assert want[1::2] == [-1] * 4
    got, _ = run(triples, tmp_path)
    assert got == want


def test_twenty_large_within_cpu_budget(tmp_path):
    rng = random.Random(31)
    triples = [gen_dlog.instance(rng, "mixed" if i % 2 else "prime") for i in range(20)]
    got, cpu = run(triples, tmp_path)
    assert got == [ref_dlog.dlog(a, b, n) for a, b, n in triples]
    assert cpu <= 60, f"used {cpu:.1f} s of CPU time for 20 triples"
