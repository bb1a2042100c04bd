import random
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


def opt_cost(words, N):
    n = len(words)
    best = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        if len(words[i]) > N:
            best[i] = best[i + 1]
            continue
        b = None
        length = -1
        for j in range(i, n):
            if len(words[j]) > N:
                break
            length += len(words[j]) + 1
            if length > N:
                break
            c = (0 if j + 1 == n else (N - length) ** 2) + best[j + 1]
            b = c if b is None or c < b else b
        best[i] = b
    return best[0]


def paragraphs(text):
    paras, cur = [], []
    for line in text.split("\n"):
        if line.strip():
            cur.extend(line.split())
        elif cur:
            paras.append(cur)
            cur = []
    if cur:
        paras.append(cur)
    return paras


def check(text, N, out):
    paras = paragraphs(text)
    if not paras:
        assert out == ""
        return
    assert out.endswith("\n") and not out.endswith("\n\n")
    blocks = out[:-1].split("\n\n")
    assert len(blocks) == len(paras)
    for words, block in zip(paras, blocks):
        lines = block.split("\n")
        assert [w for l in lines for w in l.split(" ")] == words
        cost = 0
        for k, l in enumerate(lines):
            assert l == l.strip() and "  " not in l and l
            if len(l) > N:
                assert " " not in l, f"over-long line with several words: {l!r}"
            elif k < len(lines) - 1:
                cost += (N - len(l)) ** 2
        assert cost == opt_cost(words, N), (N, cost, opt_cost(words, N))


def timed(text, N, cpu_limit=60):
    return run_cpu(["python3", "/app/balance.py", "--width", str(N)], cpu_limit, "balance.py", input=text.encode())


def run(text, N):
    r, _ = timed(text, N)
    assert r.returncode == 0, r.stderr
    return r.stdout.decode()


def test_sample():
    text = open("/app/essay.txt").read()
    for N in (12, 20, 33, 60):
        check(text, N, run(text, N))


def test_beats_greedy_example():
    text = "aaa bb cc ddddd\n"
    assert run(text, 6) == "aaa\nbb cc\nddddd\n"


@pytest.mark.parametrize("seed", range(6))
def test_random(seed):
    rng = random.Random(seed)
    words = [rng.choice(["a", "to", "the", "word", "quick", "brown", "lengthy", "extraordinarily", "x" * rng.randint(1, 30)])
             for _ in range(rng.randint(1, 300))]
    text = ""
    for k, w in enumerate(words):
        text += w + (rng.choice(["\n\n", "\n \n"]) if rng.random() < 0.03 else rng.choice([" ", "  ", "\t", "\n"]))
    N = rng.randint(8, 50)
    check(text, N, run(text, N))


def test_large_paragraph_fast():
    rng = random.Random(9)
    words = [rng.choice(["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"]) for _ in range(4000)]
    text = " ".join(words) + "\n"
    r, cpu = timed(text, 72, cpu_limit=32)
    assert cpu < 30   # CPU seconds (user + system)
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    check(text, 72, out)


def test_empty_and_errors():
    assert run("  \n\n\t\n", 10) == ""
    for args in ([], ["--width", "0"], ["--width", "ten"]):
        r, _ = run_cpu(["python3", "/app/balance.py", *args], 20, "balance.py", input=b"hi\n")
        assert r.returncode == 2 and r.stdout == b"" and r.stderr
