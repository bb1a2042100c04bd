"""/app/aliquot/census.py must write a byte-identical OUT.txt to the original program (a copy lives in
/tests) for ranges chosen here, and meet a CPU-time bar for N = 2,000,000.

Small ranges are compared with the original itself; the large one with the tests' fast reference
(ref_fast.py), which is checked against the original here first."""
import os
import random
import resource
import subprocess
import sys

import pytest

PROGRAM = "/app/aliquot/census.py"
ORIGINAL = "/tests/orig_census.py"
REFERENCE = "/tests/ref_fast.py"
RNG_SEED = 20261205
RNG = random.Random(RNG_SEED)
CPU_BAR = 3.0       # seconds of CPU for N = 2,000,000 (the reference ~1.3 s; the original would take hours)
CPU_KILL = 6         # RLIMIT_CPU for the program under test: a hang guard that load cannot trip
ENV = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")


def _limit():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_KILL, CPU_KILL))


def run(program, args, ok=True):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, program, *map(str, args)], capture_output=True, text=True,
                       timeout=1800, preexec_fn=_limit, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if ok:
        assert r.returncode == 0, f"{program} exited {r.returncode} (CPU limit {CPU_KILL} s): {r.stderr[-2000:]}"
    return r, cpu


def against(other, tmp_path, tag, n, opts=()):
    got, want = tmp_path / f"{tag}-got.txt", tmp_path / f"{tag}-want.txt"
    _, cpu = run(PROGRAM, [n, got, *opts])
    run(other, [n, want, *opts])
    g, w = got.read_text(), want.read_text()
    if g != w:
        gl, wl = g.splitlines(), w.splitlines()
        k = next((i for i, (a, b) in enumerate(zip(gl, wl)) if a != b), min(len(gl), len(wl)))
        pytest.fail(f"{tag} N={n} {list(opts)}: output differs first at line {k + 1}: got {gl[k:k + 1]}, "
                    f"expected {wl[k:k + 1]} ({len(gl)} lines vs {len(wl)})")
    return w, cpu


def test_default_census(tmp_path):
    n = RNG.randint(15000, 30000)
    out, _ = against(ORIGINAL, tmp_path, "default", n)
    assert out.startswith(f"range 1 {n}\nperfect 4 6 28 496 8128\n")
    assert "pair 220 284\n" in out


def test_windows_and_walk_lengths(tmp_path):
    for k in range(3):
        n = RNG.randint(3000, 20000)
        start = RNG.choice([2, RNG.randint(1, n), n // 2, n])
        against(ORIGINAL, tmp_path, f"w{k}", n, ["--from", start, "--steps", RNG.choice([1, 2, 5, 13, 45])])


def test_tiny_ranges(tmp_path):
    for n, opts in [(1, []), (2, ["--steps", 1]), (6, ["--from", 6]), (28, ["--steps", 3, "--from", 5]),
                    (220, ["--from", 200])]:
        against(ORIGINAL, tmp_path, f"t{n}", n, opts)


def test_rejects_bad_arguments(tmp_path):
    for args in ([0, tmp_path / "x.txt"], [100, tmp_path / "x.txt", "--from", 101],
                 [100, tmp_path / "x.txt", "--steps", 0]):
        r, _ = run(PROGRAM, args, ok=False)
        assert r.returncode != 0, f"{args} must be rejected with a non-zero exit status"


def test_reference_agrees_with_the_original(tmp_path):
    n = RNG.randint(30000, 40000)
    for opts in ([], ["--from", RNG.randint(100, n), "--steps", 40]):
        a, b = tmp_path / "self-orig.txt", tmp_path / "self-ref.txt"
        run(ORIGINAL, [n, a, *opts])
        run(REFERENCE, [n, b, *opts])
        assert a.read_text() == b.read_text()


def test_large_census_within_the_cpu_bar(tmp_path):
    out, cpu = against(REFERENCE, tmp_path, "big", 2_000_000)
    assert "pair 1511930 1598470\n" in out
    print(f"CPU time for N = 2,000,000: {cpu:.2f} s")
    assert cpu <= CPU_BAR, f"N = 2,000,000 took {cpu:.2f} s of CPU time (bar: {CPU_BAR} s)"


def test_large_window_with_long_walks_within_the_cpu_bar(tmp_path):
    start = RNG.randint(500_000, 1_000_000)
    _, cpu = against(REFERENCE, tmp_path, "bigw", 2_000_000, ["--from", start, "--steps", 60])
    print(f"CPU time for N = 2,000,000 from {start}, 60 steps: {cpu:.2f} s")
    assert cpu <= CPU_BAR, f"N = 2,000,000 from {start} took {cpu:.2f} s of CPU time (bar: {CPU_BAR} s)"
