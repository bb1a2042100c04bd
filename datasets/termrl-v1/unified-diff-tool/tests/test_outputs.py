import os
import random
import re
import shutil
import subprocess
import time

import pytest
import resource
import signal


# Speed limits measure CPU time, not wall-clock time: other work on the machine stretches the second,
# never the first. Each program runs under RLIMIT_CPU (its limit plus a margin); the wall-clock timeout
# is only a hang guard for a program that blocks without using CPU.
HANG_GUARD_S = 600


def run_cpu(cmd, cpu_limit, name, **kwargs):
    """Run ``cmd``; return (completed process, CPU seconds it used: user + system, from getrusage).
    RLIMIT_CPU stops it once it has used ``cpu_limit`` seconds of CPU."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, timeout=HANG_GUARD_S, preexec_fn=limit, **kwargs)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert proc.returncode not in (-signal.SIGXCPU, -signal.SIGKILL), f"{name} used more than {cpu_limit} s of CPU time"
    return proc, cpu


def lcs_len(a, b):
    # O(n*m) but only on small inputs
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def udiff(tmp_path, old, new, *extra, cpu_limit=60):
    po, pn = tmp_path / "old.txt", tmp_path / "new.txt"
    po.write_bytes(old)
    pn.write_bytes(new)
    r, cpu = run_cpu(["python3", "/app/udiff.py", *extra, str(po), str(pn)], cpu_limit, "udiff.py")
    return r, po, pn, cpu


def apply_ok(tmp_path, r, old, new):
    work = tmp_path / "work.txt"
    work.write_bytes(old)
    p = subprocess.run(["patch", "-s", "--no-backup-if-mismatch", str(work)], input=r.stdout, capture_output=True)
    assert p.returncode == 0, (p.stdout, p.stderr, r.stdout)
    assert work.read_bytes() == new


def changed_lines(out):
    body = [l for l in out.decode().split("\n") if not l.startswith(("---", "+++"))]
    return sum(1 for l in body if l[:1] in ("+", "-"))


def test_identical(tmp_path):
    r, _, _, _ = udiff(tmp_path, b"a\nb\n", b"a\nb\n")
    assert r.returncode == 0 and r.stdout == b""


def test_simple_format(tmp_path):
    old = b"".join(b"line%d\n" % i for i in range(1, 11))
    new = old.replace(b"line5\n", b"LINE5\n")
    r, po, pn, _ = udiff(tmp_path, old, new)
    assert r.returncode == 1
    assert r.stdout.decode() == (f"--- {po}\n+++ {pn}\n@@ -2,7 +2,7 @@\n line2\n line3\n line4\n-line5\n+LINE5\n"
                                 " line6\n line7\n line8\n")


def test_context_option_and_hunks(tmp_path):
    old = b"".join(b"%d\n" % i for i in range(40))
    new = old.replace(b"\n5\n", b"\nfive\n").replace(b"\n12\n", b"\ntwelve\n").replace(b"\n30\n", b"\n")
    for u in ("0", "1", "3", "5"):
        r, _, _, _ = udiff(tmp_path, old, new, "-U", u)
        assert r.returncode == 1
        n_hunks = r.stdout.count(b"\n@@ ")
        expected = {"0": 3, "1": 3, "3": 2, "5": 2}[u]
        assert n_hunks == expected, (u, r.stdout)
        apply_ok(tmp_path, r, old, new)


def test_no_newline_at_eof(tmp_path):
    cases = [(b"a\nb", b"a\nb\n"), (b"a\nb\n", b"a\nc"), (b"x", b"y"), (b"", b"z"), (b"q\n", b""), (b"a\nb", b"a\nb\nc")]
    for old, new in cases:
        r, _, _, _ = udiff(tmp_path, old, new)
        assert r.returncode == 1, (old, new)
        if (old and not old.endswith(b"\n")) or (new and not new.endswith(b"\n")):
            assert b"\\ No newline at end of file" in r.stdout
        apply_ok(tmp_path, r, old, new)


def test_random_minimal_and_applies(tmp_path):
    rng = random.Random(2718)
    vocab = [f"w{i}" for i in range(8)] + [""]
    for _ in range(120):
        a = [rng.choice(vocab) for _ in range(rng.randint(0, 40))]
        b = list(a)
        for _ in range(rng.randint(1, 10)):
            k = rng.random()
            if k < 0.4 and b:
                del b[rng.randrange(len(b))]
            elif k < 0.8:
                b.insert(rng.randint(0, len(b)), rng.choice(vocab))
            elif b:
                b[rng.randrange(len(b))] = rng.choice(vocab)
        old = ("\n".join(a) + ("\n" if a else "")).encode()
        new = ("\n".join(b) + ("\n" if b else "")).encode()
        if rng.random() < 0.2 and new.endswith(b"\n") and not new.endswith(b"\n\n"):
            new = new[:-1]
        if old == new:
            continue
        r, _, _, _ = udiff(tmp_path, old, new, "-U", str(rng.choice([0, 1, 2, 3])))
        assert r.returncode == 1
        apply_ok(tmp_path, r, old, new)
        # strict minimality on inputs that both end with a newline
        if old.endswith(b"\n") and new.endswith(b"\n"):
            A, B = old.decode().split("\n")[:-1], new.decode().split("\n")[:-1]
            assert changed_lines(r.stdout) == len(A) + len(B) - 2 * lcs_len(A, B), (A, B, r.stdout)


def test_large_files_fast(tmp_path):
    rng = random.Random(99)
    a = [f"line {i} {rng.randint(0, 10**6)}" for i in range(5000)]
    b = list(a)
    for _ in range(300):
        i = rng.randrange(len(b))
        k = rng.random()
        if k < 0.4:
            del b[i]
        elif k < 0.7:
            b.insert(i, f"new {rng.randint(0, 10**9)}")
        else:
            b[i] = f"changed {rng.randint(0, 10**9)}"
    old, new = ("\n".join(a) + "\n").encode(), ("\n".join(b) + "\n").encode()
    r, _, _, cpu = udiff(tmp_path, old, new, cpu_limit=12)
    assert cpu < 10   # CPU seconds (user + system)
    assert r.returncode == 1
    apply_ok(tmp_path, r, old, new)
    sa = set(a)
    sb = set(b)
    # all lines unique here, so LCS = common lines in order == lines present in both
    common = len(sa & sb)
    assert changed_lines(r.stdout) == len(a) + len(b) - 2 * common


def test_errors_and_no_difflib(tmp_path):
    r = subprocess.run(["python3", "/app/udiff.py", "/nonexistent", "/etc/hostname"], capture_output=True)
    assert r.returncode == 2
    r = subprocess.run(["python3", "/app/udiff.py", "onlyone"], capture_output=True)
    assert r.returncode == 2
    src = open("/app/udiff.py").read()
    assert not re.search(r"\bdifflib\b", src)
