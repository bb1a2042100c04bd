"""/app/align/align_batch.py must write byte-identical OUT.tsv to the original program (a copy lives in
/tests) on inputs generated here, and meet a CPU-time bar on a 24 x 24 all-against-all batch.

Small batches are compared with the original itself; the large ones with the tests' reference (the
original's code with local_align() in C, ref_align.c), which is checked against the original here."""
import os
import random
import resource
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import ref_fast  # noqa: E402
import seqgen  # noqa: E402

PROGRAM = "/app/align/align_batch.py"
ORIGINAL = "/tests/orig_align_batch.py"
RNG = random.Random(int.from_bytes(os.urandom(4), "little"))
CPU_BAR = 3.0       # seconds of CPU for the 24 x 24 batch (the original needs ~60 s)
CPU_KILL = 12       # RLIMIT_CPU for the program under test: a hang guard that load cannot trip


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return ref_fast.build(str(tmp_path_factory.mktemp("ref")))


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


def batch(tmp_path, tag, nq, nt, lo, hi, messy=True):
    q, t = tmp_path / f"{tag}-q.fa", tmp_path / f"{tag}-t.fa"
    seqgen.write_fasta(RNG, q, seqgen.families(RNG, nq, lo, hi), "Q", messy)
    seqgen.write_fasta(RNG, t, seqgen.families(RNG, nt, lo, hi), "T", messy)
    return q, t


def compare(got_path, want_path, what):
    got, want = got_path.read_text(), want_path.read_text()
    if got != want:
        g, w = got.splitlines(), want.splitlines()
        k = next((i for i, (a, b) in enumerate(zip(g, w)) if a != b), min(len(g), len(w)))
        pytest.fail(f"{what}: output differs first at line {k + 1}: got {g[k:k + 1]}, expected {w[k:k + 1]} "
                    f"({len(g)} lines vs {len(w)})")
    return want


def against_original(tmp_path, tag, args):
    got, want = tmp_path / f"{tag}-got.tsv", tmp_path / f"{tag}-want.tsv"
    run(PROGRAM, [args[0], args[1], got, *args[2:]])
    run(ORIGINAL, [args[0], args[1], want, *args[2:]])
    return compare(got, want, tag)


def against_reference(tmp_path, tag, args, lib):
    got, want = tmp_path / f"{tag}-got.tsv", tmp_path / f"{tag}-want.tsv"
    cpu = run(PROGRAM, [args[0], args[1], got, *args[2:]])
    ref_fast.run([args[0], args[1], want, *args[2:]], lib)
    return compare(got, want, tag), cpu


def test_the_shipped_example(tmp_path):
    against_original(tmp_path, "example", ["/app/align/queries.fa", "/app/align/targets.fa"])


def test_random_batches_default_scoring(tmp_path):
    for k in range(3):
        q, t = batch(tmp_path, f"b{k}", RNG.randint(2, 5), RNG.randint(2, 5), 5, 90)
        against_original(tmp_path, f"b{k}", [q, t])


def test_other_gap_penalties_and_min_score(tmp_path):
    for k, (go, ge) in enumerate([(RNG.randint(5, 15), RNG.randint(1, 3)), (RNG.randint(2, 4), RNG.randint(2, 4)),
                                  (RNG.randint(8, 20), 0)]):
        q, t = batch(tmp_path, f"g{k}", 4, 4, 10, 80)
        out = against_original(tmp_path, f"g{k}", [q, t, "--gap-open", go, "--gap-extend", ge,
                                                   "--min-score", RNG.randint(20, 60)])
        assert out.startswith("query\ttarget\tscore")


def test_generated_matrix_not_symmetric(tmp_path):
    for k, symmetric in enumerate([True, False]):
        m = tmp_path / f"m{k}.txt"
        seqgen.matrix_file(RNG, m, symmetric)
        q, t = batch(tmp_path, f"x{k}", 4, 3, 10, 80)
        against_original(tmp_path, f"x{k}", [q, t, "--matrix", m, "--gap-open", RNG.randint(6, 12)])


def test_ties_report_the_first_best_cell(tmp_path):
    # a target holding the same motif twice: the best score is reached at both copies
    motif = seqgen.protein(RNG, RNG.randint(20, 35)).replace("U", "A").replace("O", "A").replace("J", "A")
    q, t = tmp_path / "tie-q.fa", tmp_path / "tie-t.fa"
    q.write_text(f">motif\n{motif}\n>twice\n{motif}GGGGGGGG{motif}\n")
    t.write_text(f">pair\n{seqgen.protein(RNG, 10)}{motif}{seqgen.protein(RNG, 30)}{motif}\n>one\n{motif}\n")
    out = against_original(tmp_path, "tie", [q, t])
    assert out.count("\n") == 5


def test_reference_agrees_with_the_original(tmp_path, lib):
    q, t = batch(tmp_path, "self", 3, 4, 20, 120)
    for args in ([q, t], [q, t, "--gap-open", 5, "--gap-extend", 2]):
        a, b = tmp_path / "self-orig.tsv", tmp_path / "self-ref.tsv"
        run(ORIGINAL, [args[0], args[1], a, *args[2:]])
        ref_fast.run([args[0], args[1], b, *args[2:]], lib)
        assert a.read_text() == b.read_text()


def test_long_sequences(tmp_path, lib):
    q, t = batch(tmp_path, "long", 2, 3, 1500, 2500)
    against_reference(tmp_path, "long", [q, t, "--gap-open", RNG.randint(8, 12)], lib)


def test_production_batch_within_the_cpu_bar(tmp_path, lib):
    q, t = batch(tmp_path, "big", 24, 24, 150, 450, messy=False)
    out, cpu = against_reference(tmp_path, "big", [q, t], lib)
    assert out.count("\n") == 24 * 24 + 1
    assert cpu <= CPU_BAR, f"the 24 x 24 batch took {cpu:.2f} s of CPU time (bar: {CPU_BAR} s)"
