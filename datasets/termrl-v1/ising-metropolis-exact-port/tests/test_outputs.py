"""/app/ising/ising.py must write a byte-identical OUT.txt to the original program (a copy lives in
/tests) for runs chosen here, and meet a CPU-time bar on a 128 x 128 lattice over 400 sweeps.

Small runs are compared with the original itself; the large one with the tests' reference (the
original's sweeps in C, ref_core.c through ref_fast.py), which is checked against the original here."""
import os
import random
import resource
import subprocess
import sys

import pytest

PROGRAM = "/app/ising/ising.py"
ORIGINAL = "/tests/orig_ising.py"
REFERENCE = "/tests/ref_fast.py"
RNG = random.Random(int.from_bytes(os.urandom(4), "little"))
CPU_BAR = 1.0       # seconds of CPU for 128 x 128 x 400 sweeps (the reference ~0.2 s, the original ~6 s)
CPU_KILL = 8        # RLIMIT_CPU for the program under test: a hang guard that load cannot trip


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    d = tmp_path_factory.mktemp("reflib")
    return dict(os.environ, ISING_LIB_DIR=str(d), OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")


def _limit():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_KILL, CPU_KILL))


def run(program, args, env, ok=True):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, program, *map(str, args)], capture_output=True, text=True,
                       timeout=1800, preexec_fn=_limit, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if ok:
        assert r.returncode == 0, f"{program} exited {r.returncode} (CPU limit {CPU_KILL} s): {r.stderr[-2000:]}"
    return r, cpu


def against(other, tmp_path, env, tag, args, opts=()):
    got, want = tmp_path / f"{tag}-got.txt", tmp_path / f"{tag}-want.txt"
    _, cpu = run(PROGRAM, [*args, got, *opts], env)
    run(other, [*args, want, *opts], env)
    g, w = got.read_text(), want.read_text()
    if g != w:
        gl, wl = g.splitlines(), w.splitlines()
        k = next((i for i, (a, b) in enumerate(zip(gl, wl)) if a != b), min(len(gl), len(wl)))
        pytest.fail(f"{tag} {args} {opts}: output differs first at line {k + 1}: got {gl[k:k + 1]}, "
                    f"expected {wl[k:k + 1]} ({len(gl)} lines vs {len(wl)})")
    return w, cpu


def seed():
    return RNG.randrange(2 ** 64)


def test_random_runs(tmp_path, env):
    for k in range(3):
        n, sweeps = RNG.randint(6, 20), RNG.randint(10, 40)
        out, _ = against(ORIGINAL, tmp_path, env, f"r{k}", [n, sweeps, RNG.choice([0.2, 0.4406868, 0.7, 1.1]), seed()])
        assert out.count("\n") == sweeps // 10 + n


def test_fields_and_recording_intervals(tmp_path, env):
    cases = [(["--field", RNG.choice([0.05, -0.3, 1.25]), "--every", RNG.randint(1, 4)]),
             (["--every", 1000]), (["--field", "0.0", "--every", 7]), (["--field", -4.0])]
    for k, opts in enumerate(cases):
        against(ORIGINAL, tmp_path, env, f"f{k}", [RNG.randint(5, 16), RNG.randint(15, 30), RNG.uniform(0.1, 1.0),
                                                   seed()], opts)


def test_small_and_odd_lattices_and_extreme_seeds(tmp_path, env):
    for k, (n, s) in enumerate([(2, 0), (3, 2 ** 64 - 1), (2, 2 ** 63), (7, 1)]):
        against(ORIGINAL, tmp_path, env, f"s{k}", [n, RNG.randint(5, 30), RNG.uniform(0.1, 2.0), s], ["--every", 2])
    out, _ = against(ORIGINAL, tmp_path, env, "zero", [9, 0, 0.5, seed()])
    assert out.count("\n") == 9


def test_cold_and_hot_limits(tmp_path, env):
    against(ORIGINAL, tmp_path, env, "cold", [12, 30, 3.0, seed()], ["--every", 3])
    against(ORIGINAL, tmp_path, env, "hot", [12, 30, 0.0, seed()], ["--every", 3])
    against(ORIGINAL, tmp_path, env, "neg", [10, 20, -0.25, seed()], ["--field", 0.5])


def test_rejects_bad_arguments(tmp_path, env):
    r, _ = run(PROGRAM, [1, 5, 0.4, 3, tmp_path / "bad.txt"], env, ok=False)
    assert r.returncode != 0, "L = 1 must be rejected with a non-zero exit status"
    r, _ = run(PROGRAM, [8, 5, 0.4, 3, tmp_path / "bad.txt", "--every", 0], env, ok=False)
    assert r.returncode != 0, "--every 0 must be rejected with a non-zero exit status"


def test_reference_agrees_with_the_original(tmp_path, env):
    for k, opts in enumerate([[], ["--field", 0.1, "--every", 5]]):
        args = [RNG.randint(16, 24), 50, RNG.choice([0.3, 0.44, 0.6]), seed()]
        a, b = tmp_path / f"self{k}-orig.txt", tmp_path / f"self{k}-ref.txt"
        run(ORIGINAL, [*args, a, *opts], env)
        run(REFERENCE, [*args, b, *opts], env)
        assert a.read_text() == b.read_text()


def test_large_run_within_the_cpu_bar(tmp_path, env):
    run(REFERENCE, [4, 1, 0.4, 1, tmp_path / "warm.txt"], env)  # builds the reference library first
    out, cpu = against(REFERENCE, tmp_path, env, "big", [128, 400, 0.44, seed()], ["--field", 0.05])
    assert out.count("\n") == 40 + 128
    print(f"CPU time for 128 x 128, 400 sweeps: {cpu:.2f} s")
    assert cpu <= CPU_BAR, f"128 x 128 over 400 sweeps took {cpu:.2f} s of CPU time (bar: {CPU_BAR} s)"
