"""/app/wf/wordfreq (built with `make -C /app/wf`) must print byte-identical output to the original C
program (compiled here from a copy in /tests) on texts generated here, and meet a CPU-time bar on a
1.2-million-word corpus.

Small texts are compared with the original itself; the large corpus with the tests' fast reference
(ref_wordfreq.c), which is checked against the original here first."""
import os
import random
import resource
import subprocess

import pytest

import sys
sys.path.insert(0, "/tests")
import gen  # noqa: E402

APP = "/app/wf"
PROGRAM = "/app/wf/wordfreq"
RNG = random.Random(int.from_bytes(os.urandom(4), "little"))
CPU_BAR = 1.5       # seconds of CPU for 1.2 million words (the reference needs ~0.2 s; the original never ends)
CPU_KILL = 5        # RLIMIT_CPU for the program under test: a hang guard that load cannot trip


@pytest.fixture(scope="module")
def bins(tmp_path_factory):
    d = tmp_path_factory.mktemp("bin")
    r = subprocess.run(["make", "-C", APP, "clean"], capture_output=True, text=True, timeout=600)
    r = subprocess.run(["make", "-C", APP], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"make -C {APP} failed: {r.stdout[-1500:]} {r.stderr[-1500:]}"
    assert os.access(PROGRAM, os.X_OK), f"make -C {APP} did not produce {PROGRAM}"
    out = {}
    for name in ("orig", "ref"):
        out[name] = str(d / name)
        subprocess.run(["gcc", "-O2", "-o", out[name], f"/tests/{name}_wordfreq.c"], check=True, timeout=600)
    return out


def _limit():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_KILL, CPU_KILL))


def run(binary, args, stdin=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([binary, *map(str, args)], capture_output=True, timeout=1800, preexec_fn=_limit,
                       input=stdin)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return r, cpu


def same(bins, other, args, what, stdin=None):
    got, cpu = run(PROGRAM, args, stdin)
    want, _ = run(bins[other], args, stdin)
    assert want.returncode == 0, want.stderr
    assert got.returncode == 0, f"{what}: exit {got.returncode} (CPU limit {CPU_KILL} s): {got.stderr[-1500:]}"
    if got.stdout != want.stdout:
        g, w = got.stdout.split(b"\n"), want.stdout.split(b"\n")
        k = next((i for i, (a, b) in enumerate(zip(g, w)) if a != b), min(len(g), len(w)))
        pytest.fail(f"{what}: output differs first at line {k + 1}: got {g[k:k + 1]}, expected {w[k:k + 1]} "
                    f"({len(g)} lines vs {len(w)})")
    return want.stdout.decode("utf-8", "replace"), cpu


def write(tmp_path, name, content):
    p = tmp_path / name
    p.write_bytes(content.encode() if isinstance(content, str) else content)
    return p


def test_the_shipped_sample(bins):
    out, _ = same(bins, "orig", ["/app/wf/sample.txt"], "sample")
    out2, _ = same(bins, "orig", ["-n", "0", "-m", "3", "/app/wf/sample.txt"], "sample -n 0 -m 3")
    assert out.startswith("total ") and out2.count("\n") > out.count("\n")


def test_random_texts(bins, tmp_path):
    for k in range(3):
        p = write(tmp_path, f"t{k}.txt", gen.text(RNG, RNG.randint(5000, 20000), RNG.randint(800, 3000)))
        same(bins, "orig", ["-n", RNG.choice([0, 1, 7, 50, 5000]), "-m", RNG.randint(0, 4), p], f"text {k}")


def test_equal_counts_keep_first_appearance(bins, tmp_path):
    vocab = gen.vocabulary(RNG, 400)
    words = [w for w in vocab for _ in range(RNG.choice([1, 2, 3]))]
    RNG.shuffle(words)
    p = write(tmp_path, "ties.txt", " ".join(words) + "\n")
    out, _ = same(bins, "orig", ["-n", "0", p], "ties")
    assert out.count("\n") > 300


def test_long_runs_odd_bytes_and_apostrophes(bins, tmp_path):
    stem = "".join(RNG.choice(gen.LETTERS) for _ in range(63))
    parts = [stem + "abc", stem.upper() + "xyz", stem[:62] + "é", stem[:62] + "ü", "''", "'", "o'neil", "O'NEIL'",
             "'tis", "rock'n'roll", "naïve", "NAÏVE", "a\x00b", "x\x7fy", "3.14159", "C3PO", "c3po", "_under_score"]
    body = " ".join(RNG.choice(parts) for _ in range(3000)).encode("utf-8") + b"\xff\xfe tail\x80\x81 end"
    p = write(tmp_path, "odd.txt", body)
    for args in (["-n", "0", p], ["-n", "0", "-m", "2", p], ["-m", "63", p]):
        same(bins, "orig", args, f"odd {args[:-1]}")


def test_several_files_and_standard_input(bins, tmp_path):
    a = write(tmp_path, "a.txt", gen.text(RNG, 3000, 500) + "split")
    b = write(tmp_path, "b.txt", "word " + gen.text(RNG, 3000, 500))
    same(bins, "orig", ["-n", "0", a, b, a], "three files")
    same(bins, "orig", ["-n", "25"], "stdin", stdin=a.read_bytes() + b.read_bytes())
    empty = write(tmp_path, "empty.txt", "")
    out, _ = same(bins, "orig", [empty], "empty")
    assert out == "total 0 distinct 0\n"


def test_errors_exit_2(bins, tmp_path):
    r, _ = run(PROGRAM, [tmp_path / "missing.txt"])
    assert r.returncode == 2 and r.stderr, "an unreadable file must give exit status 2 and a message"
    r, _ = run(PROGRAM, ["-n", "x1", "/app/wf/sample.txt"])
    assert r.returncode == 2, "a bad -n value must give exit status 2"


def test_reference_agrees_with_the_original(bins, tmp_path):
    p = write(tmp_path, "self.txt", gen.text(RNG, 40000, 4000))
    for args in (["-n", "0", p], ["-m", "4", "-n", "100", p]):
        a, _ = run(bins["orig"], args)
        b, _ = run(bins["ref"], args)
        assert a.returncode == 0 and a.stdout == b.stdout


def test_large_corpus_within_the_cpu_bar(bins, tmp_path):
    p = write(tmp_path, "big.txt", gen.text(RNG, 1_200_000, 50000))
    out, cpu = same(bins, "ref", ["-n", "0", p], "large corpus")
    assert out.startswith("total ")
    print(f"CPU time for 1.2 million words: {cpu:.2f} s")
    assert cpu <= CPU_BAR, f"1.2 million words took {cpu:.2f} s of CPU time (bar: {CPU_BAR} s)"
