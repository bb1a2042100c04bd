"""/app/optics/optics.py must write a byte-identical OUT.tsv to the original program (a copy lives in
/tests) on point sets generated here, and meet a CPU-time bar on 20,000 points.

Small sets are compared with the original itself; the large one with the tests' fast reference
(ref_fast.py), which is checked against the original here first."""
import os
import random
import resource
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import gen  # noqa: E402

PROGRAM = "/app/optics/optics.py"
ORIGINAL = "/tests/orig_optics.py"
REFERENCE = "/tests/ref_fast.py"
RNG = random.Random(int.from_bytes(os.urandom(4), "little"))
CPU_BAR = 4.0       # seconds of CPU for 20,000 points (the reference needs ~1 s, the original many minutes)
CPU_KILL = 10       # RLIMIT_CPU for the program under test: a hang guard that load cannot trip
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


def against(other, tmp_path, tag, src, opts):
    got, want = tmp_path / f"{tag}-got.tsv", tmp_path / f"{tag}-want.tsv"
    _, cpu = run(PROGRAM, [src, got, *opts])
    run(other, [src, want, *opts])
    return compare(got, want, tag), cpu


def point_file(tmp_path, tag, pts, messy=True):
    src = tmp_path / f"{tag}.txt"
    gen.write(src, pts, RNG, messy)
    return src


def test_the_shipped_example(tmp_path):
    out, _ = against(ORIGINAL, tmp_path, "example", "/app/optics/points.txt", ["--eps", 9, "--min-pts", 5])
    assert out.startswith("pos\tpoint\treach\tcore\tcluster\n")


def test_random_sets(tmp_path):
    for k in range(3):
        n = RNG.randint(600, 1300)
        src = point_file(tmp_path, f"r{k}", gen.points(RNG, n, RNG.choice([300, 1000])))
        opts = ["--eps", RNG.choice([4, 7.5, 12, 20]), "--min-pts", RNG.randint(2, 12)]
        if k:
            opts += ["--cut", RNG.choice([2.5, 5, 9.25])]
        out, _ = against(ORIGINAL, tmp_path, f"r{k}", src, opts)
        assert out.count("\n") == n + 1


def test_lattice_ties(tmp_path):
    # lattice patches with holes: most reachability distances are equal (1, sqrt 2, 2, ...)
    pts = []
    for _ in range(RNG.randint(3, 6)):
        ox, oy, w, h = RNG.randint(-200, 200), RNG.randint(-200, 200), RNG.randint(5, 15), RNG.randint(5, 15)
        pts += [(ox + i, oy + j) for i in range(w) for j in range(h) if RNG.random() < 0.8]
    RNG.shuffle(pts)
    src = point_file(tmp_path, "lattice", pts, messy=False)
    for eps, k in [(1, 3), (1.5, 5), (2.3, 9)]:
        against(ORIGINAL, tmp_path, f"lattice-{eps}", src, ["--eps", eps, "--min-pts", k])


def test_edge_cases(tmp_path):
    dup = [(3, 4)] * 5 + [(3, 5)] * 2 + [(10, 10), (-7, 0), (-7, 0)]
    RNG.shuffle(dup)
    src = point_file(tmp_path, "dup", dup)
    against(ORIGINAL, tmp_path, "eps0", src, ["--eps", 0, "--min-pts", 2])
    against(ORIGINAL, tmp_path, "k1", src, ["--eps", 1, "--min-pts", 1, "--cut", 0.5])
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing here\n\n")
    out, _ = against(ORIGINAL, tmp_path, "empty", empty, ["--eps", 3, "--min-pts", 2])
    assert out == "pos\tpoint\treach\tcore\tcluster\n"
    one = point_file(tmp_path, "one", [(5, -5)])
    against(ORIGINAL, tmp_path, "one", one, ["--eps", 3, "--min-pts", 1])
    src = point_file(tmp_path, "wide", gen.points(RNG, 400, 200))
    against(ORIGINAL, tmp_path, "wide", src, ["--eps", 30, "--min-pts", 4, "--cut", 60])


def test_rejects_a_bad_line(tmp_path):
    src = tmp_path / "bad.txt"
    src.write_text("1 2\n3 4 5\n")
    r, _ = run(PROGRAM, [src, tmp_path / "bad.tsv", "--eps", 2, "--min-pts", 2], ok=False)
    assert r.returncode != 0, "a line without exactly two integers must be rejected (non-zero exit)"


def test_reference_agrees_with_the_original(tmp_path):
    src = point_file(tmp_path, "self", gen.points(RNG, 1500, 600))
    for opts in (["--eps", 9, "--min-pts", 6], ["--eps", 5, "--min-pts", 3, "--cut", 3]):
        a, b = tmp_path / "self-orig.tsv", tmp_path / "self-ref.tsv"
        run(ORIGINAL, [src, a, *opts])
        run(REFERENCE, [src, b, *opts])
        assert a.read_text() == b.read_text()


def test_large_set_within_the_cpu_bar(tmp_path):
    src = point_file(tmp_path, "big", gen.points(RNG, 20000, 4000, 150))
    out, cpu = against(REFERENCE, tmp_path, "big", src, ["--eps", 12, "--min-pts", 6])
    assert out.count("\n") == 20001
    print(f"CPU time for 20,000 points: {cpu:.2f} s")
    assert cpu <= CPU_BAR, f"20,000 points took {cpu:.2f} s of CPU time (bar: {CPU_BAR} s)"
