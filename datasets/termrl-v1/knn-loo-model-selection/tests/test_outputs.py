"""/app/knn/knn.py must write byte-identical OUT.json to the original program (a copy lives in /tests) on
data generated here (including coarse data full of equal distances and duplicated rows), and meet a
CPU-time bar at 6000 training rows. Small data is compared with the original itself, large data with
the tests' NumPy reference, which is checked against the original in this run."""
import os
import random
import resource
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import knngen  # noqa: E402
import ref_knn  # noqa: E402

PROGRAM = "/app/knn/knn.py"
ORIGINAL = "/tests/orig_knn.py"
RNG = random.Random(int.from_bytes(os.urandom(4), "little"))
CPU_BAR = 10.0      # seconds of CPU for 6000 training and 2000 test rows (the original needs ~10 min)
CPU_KILL = 20       # RLIMIT_CPU for the program under test: a hang guard that load cannot trip


def _limit():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_KILL, CPU_KILL))


def run(program, args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, program, *map(str, args)], capture_output=True, text=True,
                       timeout=1800, preexec_fn=_limit)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert r.returncode == 0, f"{program} exited {r.returncode} (CPU limit {CPU_KILL} s): {r.stderr[-2000:]}"
    return cpu


def data(tmp_path, tag, n, m, d, classes, coarse=False):
    tr, labels = knngen.dataset(RNG, n, d, classes, coarse)
    te, _ = knngen.dataset(RNG, m, d, classes, coarse, labels)
    a, b = tmp_path / f"{tag}-train.csv", tmp_path / f"{tag}-test.csv"
    knngen.write(a, tr)
    knngen.write(b, te)
    return a, b


def compare(got, want, what):
    g, w = got.read_text(), want.read_text()
    if g != w:
        k = next((i for i, (x, y) in enumerate(zip(g, w)) if x != y), min(len(g), len(w)))
        pytest.fail(f"{what}: OUT.json differs at character {k}: got ...{g[max(0, k - 60):k + 60]!r}, "
                    f"expected ...{w[max(0, k - 60):k + 60]!r}")
    return w


def against_original(tmp_path, tag, train, test, extra=()):
    got, want = tmp_path / f"{tag}-got.json", tmp_path / f"{tag}-want.json"
    run(PROGRAM, [train, test, got, *extra])
    run(ORIGINAL, [train, test, want, *extra])
    return compare(got, want, tag)


def against_reference(tmp_path, tag, train, test, ks=(1, 3, 5, 7, 9, 11, 13, 15)):
    got, want = tmp_path / f"{tag}-got.json", tmp_path / f"{tag}-want.json"
    cpu = run(PROGRAM, [train, test, got])
    ref_knn.run(train, test, want, list(ks))
    compare(got, want, tag)
    return cpu


def test_the_shipped_example(tmp_path):
    against_original(tmp_path, "example", "/app/knn/train.csv", "/app/knn/test.csv")


def test_random_data(tmp_path):
    for k in range(2):
        train, test = data(tmp_path, f"r{k}", RNG.randint(120, 260), RNG.randint(20, 60), RNG.randint(2, 12),
                           RNG.randint(2, 6))
        against_original(tmp_path, f"r{k}", train, test)


def test_equal_distances_and_duplicate_rows(tmp_path):
    for k in range(2):
        train, test = data(tmp_path, f"c{k}", RNG.randint(150, 260), RNG.randint(30, 60), RNG.randint(3, 6),
                           RNG.randint(2, 5), coarse=True)
        against_original(tmp_path, f"c{k}", train, test)


def test_other_k_lists(tmp_path):
    train, test = data(tmp_path, "ks", 200, 40, 4, 4, coarse=True)
    for ks in (str(RNG.choice([2, 4, 6])), ",".join(map(str, RNG.sample(range(1, 21), 5))), "10,2,6,2"):
        out = against_original(tmp_path, "ks", train, test, ["--ks", ks])
        assert '"chosen_k"' in out


def test_reference_agrees_with_the_original(tmp_path):
    for k, coarse in enumerate([False, True]):
        train, test = data(tmp_path, f"self{k}", 180, 40, 5, 4, coarse)
        a, b = tmp_path / f"self{k}-orig.json", tmp_path / f"self{k}-ref.json"
        run(ORIGINAL, [train, test, a])
        ref_knn.run(train, test, b, [1, 3, 5, 7, 9, 11, 13, 15])
        assert a.read_text() == b.read_text()


def test_larger_coarse_data(tmp_path):
    train, test = data(tmp_path, "lc", 1500, 500, RNG.randint(4, 8), RNG.randint(3, 6), coarse=True)
    against_reference(tmp_path, "lc", train, test)


def test_production_size_within_the_cpu_bar(tmp_path):
    train, test = data(tmp_path, "big", 6000, 2000, 16, RNG.randint(5, 9))
    cpu = against_reference(tmp_path, "big", train, test)
    assert cpu <= CPU_BAR, f"6000 x 2000 took {cpu:.2f} s of CPU time (bar: {CPU_BAR} s)"
