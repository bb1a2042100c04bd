"""/app/overlaps.py must write a byte-identical REPORT.txt to the original program (a copy lives in
/tests) on booking files generated here, and meet a CPU-time bar on 150,000 bookings.

Small files are compared with the original itself; the large one with the tests' fast reference
(ref_fast.py), which is checked against the original here first."""
import os
import random
import resource
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import gen  # noqa: E402

PROGRAM = "/app/overlaps.py"
ORIGINAL = "/tests/orig_overlaps.py"
REFERENCE = "/tests/ref_fast.py"
RNG_SEED = 51202612
RNG = random.Random(RNG_SEED)
CPU_BAR = 3.0       # seconds of CPU for 150,000 bookings (the reference ~1 s; the original takes hours)
CPU_KILL = 8        # RLIMIT_CPU for the program under test: a hang guard that load cannot trip


def _limit():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_KILL, CPU_KILL))


def run(program, args, ok=True):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, program, *map(str, args)], capture_output=True, text=True,
                       timeout=1800, preexec_fn=_limit)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if ok:
        assert r.returncode == 0, f"{program} exited {r.returncode} (CPU limit {CPU_KILL} s): {r.stderr[-2000:]}"
    return r, cpu


def against(other, tmp_path, tag, content):
    src = tmp_path / f"{tag}.txt"
    src.write_text(content)
    got, want = tmp_path / f"{tag}-got.txt", tmp_path / f"{tag}-want.txt"
    _, cpu = run(PROGRAM, [src, got])
    run(other, [src, want])
    g, w = got.read_text(), want.read_text()
    if g != w:
        gl, wl = g.splitlines(), w.splitlines()
        k = next((i for i, (a, b) in enumerate(zip(gl, wl)) if a != b), min(len(gl), len(wl)))
        pytest.fail(f"{tag}: output differs first at line {k + 1}: got {gl[k:k + 1]}, expected {wl[k:k + 1]} "
                    f"({len(gl)} lines vs {len(wl)})")
    return w, cpu


def test_the_shipped_example(tmp_path):
    out, _ = against(ORIGINAL, tmp_path, "example", open("/app/bookings.txt").read())
    assert "\npeak " in out and out.rstrip().splitlines()[-1].startswith("blocks ")


def test_random_files(tmp_path):
    for k, span in enumerate([RNG.choice([500, 2000]), 20000, 200000]):
        against(ORIGINAL, tmp_path, f"r{k}", gen.bookings(RNG, RNG.randint(600, 1500), span))


def test_touching_ends_and_equal_times(tmp_path):
    rows = []
    for k in range(300):
        a = RNG.randint(0, 40) * 10
        rows.append(f"t{k} {a} {a + RNG.choice([0, 0, 10, 10, 20])}")
    out, _ = against(ORIGINAL, tmp_path, "touch", "\n".join(rows) + "\n")
    assert out.count("\n") == 302


def test_small_and_empty_files(tmp_path):
    out, _ = against(ORIGINAL, tmp_path, "empty", "# nothing booked\n\n")
    assert out == "peak 0 at -\nblocks 0\n"
    against(ORIGINAL, tmp_path, "one", "only -5 -5\n")
    against(ORIGINAL, tmp_path, "pair", "a 1 5\nb 5 9\nc 10 10\nc 11 12\n")


def test_rejects_bad_lines(tmp_path):
    for k, (content, line) in enumerate([("a 1 2\nb 5 3\n", 2), ("a 1 2\nb x 3\n", 2), ("a 1 2 3\n", 1)]):
        src = tmp_path / f"bad{k}.txt"
        src.write_text(content)
        r, _ = run(PROGRAM, [src, tmp_path / f"bad{k}.out"], ok=False)
        assert r.returncode == 1 and f"{src}:{line}:" in r.stderr, \
            f"{content!r} must be rejected with exit status 1 and a message naming {src}:{line}: got {r.stderr!r}"


def test_reference_agrees_with_the_original(tmp_path):
    src = tmp_path / "self.txt"
    src.write_text(gen.bookings(RNG, 2000, RNG.choice([3000, 50000])))
    a, b = tmp_path / "self-orig.txt", tmp_path / "self-ref.txt"
    run(ORIGINAL, [src, a])
    run(REFERENCE, [src, b])
    assert a.read_text() == b.read_text()


def test_large_file_within_the_cpu_bar(tmp_path):
    out, cpu = against(REFERENCE, tmp_path, "big", gen.bookings(RNG, 150_000, 5_000_000, messy=False))
    assert out.count("\n") == 150_002
    print(f"CPU time for 150,000 bookings: {cpu:.2f} s")
    assert cpu <= CPU_BAR, f"150,000 bookings took {cpu:.2f} s of CPU time (bar: {CPU_BAR} s)"
