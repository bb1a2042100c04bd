import random
import subprocess
import time

import pytest
import resource


def cpu_seconds():
    """CPU time of this process and its finished children. Speed limits use it instead of wall-clock
    time, which grows when other work loads the machine."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


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


def run(text, N):
    r = subprocess.run(["python3", "/app/balance.py", "--width", str(N)], input=text.encode(), capture_output=True,
                       timeout=60)
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
    t = cpu_seconds()
    out = run(text, 72)
    assert cpu_seconds() - t < 30
    check(text, 72, out)


def test_empty_and_errors():
    assert run("  \n\n\t\n", 10) == ""
    for args in ([], ["--width", "0"], ["--width", "ten"]):
        r = subprocess.run(["python3", "/app/balance.py", *args], input=b"hi\n", capture_output=True, timeout=20)
        assert r.returncode == 2 and r.stdout == b"" and r.stderr
