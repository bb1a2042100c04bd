"""/app/pm/deposit.py must write a byte-identical OUT.txt to the original program (a copy lives in
/tests) on particle files generated here, and meet a CPU-time bar on 1.5 million particles.

Small and medium files are compared with the original itself; the large one with the tests' fast
reference (ref_fast.py), which is checked against the original here first."""
import os
import resource
import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, "/tests")
import gen  # noqa: E402

PROGRAM = "/app/pm/deposit.py"
ORIGINAL = "/tests/orig_deposit.py"
REFERENCE = "/tests/ref_fast.py"
RNG = np.random.default_rng(int.from_bytes(os.urandom(4), "little"))
CPU_BAR = 4.0       # seconds of CPU for 1.5 million particles (the original needs ~8 s, the reference ~1.5 s)
CPU_KILL = 12       # RLIMIT_CPU for the program under test: a hang guard that load cannot trip
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


def compare(got_path, want_path, what):
    got, want = got_path.read_text(), want_path.read_text()
    if got != want:
        g, w = got.splitlines(), want.splitlines()
        k = next((i for i, (a, b) in enumerate(zip(g, w)) if a != b), min(len(g), len(w)))
        pytest.fail(f"{what}: output differs first at line {k + 1}: got {g[k:k + 1]}, expected {w[k:k + 1]} "
                    f"({len(g)} lines vs {len(w)})")
    return want


def against(other, tmp_path, tag, particles, opts=()):
    src = tmp_path / f"{tag}.bin"
    if isinstance(particles, (str, os.PathLike)):
        src = particles
    else:
        gen.write(src, particles)
    got, want = tmp_path / f"{tag}-got.txt", tmp_path / f"{tag}-want.txt"
    _, cpu = run(PROGRAM, [src, got, *opts])
    run(other, [src, want, *opts])
    return compare(got, want, tag), cpu


def test_the_shipped_example(tmp_path):
    out, _ = against(ORIGINAL, tmp_path, "example", "/app/pm/sample.bin")
    assert out.startswith("particles ")


def test_random_files_default_mesh(tmp_path):
    for k in range(3):
        cnt = int(RNG.integers(3000, 25000))
        out, _ = against(ORIGINAL, tmp_path, f"r{k}", gen.particles(RNG, cnt))
        assert out.splitlines()[0] == f"particles {cnt}"


def test_other_meshes_boxes_and_thresholds(tmp_path):
    for k, cells in enumerate([int(RNG.integers(3, 60)), int(RNG.integers(90, 200)), 2]):
        box = float(RNG.choice([2.5, 10.0, 0.37, 100.0]))
        opts = ["--cells", cells, "--box", box, "--threshold", float(RNG.choice([0.5, 2.0, 7.25]))]
        against(ORIGINAL, tmp_path, f"m{k}", gen.particles(RNG, int(RNG.integers(2000, 12000)), box, cells), opts)


def test_edge_cases(tmp_path):
    # no particles, one particle, particles exactly on cell edges and far outside the box, zero mass
    against(ORIGINAL, tmp_path, "empty", np.zeros((0, 3)))
    against(ORIGINAL, tmp_path, "one", np.array([[RNG.random(), RNG.random(), 1.5]]), ["--cells", 5])
    h = 1.0 / 16
    pts = [[i * h, j * h, float(RNG.random() + 0.1)] for i in range(-17, 35, 3) for j in range(-20, 40, 7)]
    pts += [[-1e3 - RNG.random(), 7e3 + RNG.random(), 2.0], [0.999999999, 1.0, 3.0], [0.0, 0.0, 0.0]]
    out, _ = against(ORIGINAL, tmp_path, "edges", np.array(pts), ["--cells", 16])
    assert out.splitlines()[0] == f"particles {len(pts)}"


def test_rejects_a_truncated_file(tmp_path):
    src = tmp_path / "bad.bin"
    src.write_bytes(gen.particles(RNG, 10).tobytes()[:-5])
    r, _ = run(PROGRAM, [src, tmp_path / "bad.txt"], ok=False)
    o, _ = run(ORIGINAL, [src, tmp_path / "bad-orig.txt"], ok=False)
    assert o.returncode != 0
    assert r.returncode != 0, "a file whose size is not a multiple of 24 bytes must be rejected (non-zero exit)"


def test_reference_agrees_with_the_original(tmp_path):
    src = tmp_path / "self.bin"
    gen.write(src, gen.particles(RNG, 40000))
    a, b = tmp_path / "self-orig.txt", tmp_path / "self-ref.txt"
    run(ORIGINAL, [src, a])
    run(REFERENCE, [src, b])
    assert a.read_text() == b.read_text()


def test_production_file_within_the_cpu_bar(tmp_path):
    out, cpu = against(REFERENCE, tmp_path, "big", gen.particles(RNG, 1_500_000))
    assert out.splitlines()[0] == "particles 1500000"
    print(f"CPU time for 1.5 million particles: {cpu:.2f} s")
    assert cpu <= CPU_BAR, f"1.5 million particles took {cpu:.2f} s of CPU time (bar: {CPU_BAR} s)"
