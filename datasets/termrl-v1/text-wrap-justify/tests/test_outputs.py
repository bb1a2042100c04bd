import random
import subprocess

import pytest

PROG = "/app/wrap.py"


def ref(text, width, justify):
    paras, cur = [], []
    for ln in text.split("\n"):
        if not ln.strip():
            if cur:
                paras.append(cur)
            cur = []
        else:
            cur.append(ln)
    if cur:
        paras.append(cur)
    out_paras = []
    for p in paras:
        words = "\n".join(p).split()
        bullet = words[0] == "-"
        if bullet:
            words = words[1:]
        area = width - 2 if bullet else width
        lines = []
        cur = []
        for w in words:
            while len(w) > area:
                if cur:
                    lines.append(cur)
                    cur = []
                lines.append([w[:area]])
                w = w[area:]
            if cur and sum(map(len, cur)) + len(cur) + len(w) <= area:
                cur.append(w)
            elif cur:
                lines.append(cur)
                cur = [w]
            else:
                cur = [w]
        if cur:
            lines.append(cur)
        rendered = []
        for i, ws in enumerate(lines):
            if justify and i < len(lines) - 1 and len(ws) > 1:
                gaps = len(ws) - 1
                spaces = area - sum(map(len, ws))
                s = ""
                for g in range(gaps):
                    n = spaces // gaps + (1 if g < spaces % gaps else 0)
                    s += ws[g] + " " * n
                s += ws[-1]
            else:
                s = " ".join(ws)
            if bullet:
                s = ("- " if i == 0 else "  ") + s
            rendered.append(s + "\n")
        out_paras.append("".join(rendered))
    return "\n".join(out_paras)


VOCAB = ("a an the of to in fox data parser river mountain x y z encyclopedia "
         "tab-separated reformatting wrap!,  (quoted) end. 12345 über café").split()


def gen_text(rng):
    parts = []
    for _ in range(rng.randint(1, 5)):
        words = [rng.choice(VOCAB) for _ in range(rng.randint(1, 40))]
        if rng.random() < 0.25:
            words.insert(rng.randrange(len(words) + 1), "".join(rng.choice("abcdefghij") for _ in range(rng.randint(15, 70))))
        if rng.random() < 0.3:
            words = ["-"] + words
        lines, cur = [], []
        for w in words:
            cur.append(w)
            if rng.random() < 0.15:
                lines.append(rng.choice([" ", "\t", "  "]).join(cur) + rng.choice(["", " ", "\t"]))
                cur = []
        if cur:
            lines.append(" ".join(cur))
        if rng.random() < 0.2:
            lines[0] = "   " + lines[0]
        parts.append("\n".join(lines))
    seps = ["\n\n", "\n\n\n", "\n \n", "\n\t\n\n"]
    text = parts[0]
    for p in parts[1:]:
        text += rng.choice(seps) + p
    if rng.random() < 0.5:
        text = rng.choice(["\n", "\n\n", "  \n"]) + text
    return text + rng.choice(["", "\n", "\n\n\n"])


def run(args, text):
    return subprocess.run(["python3", PROG] + args, input=text.encode(), capture_output=True, timeout=20)


def test_sample_plain():
    text = open("/app/sample.txt").read()
    for w in (10, 17, 30, 72):
        r = run(["--width", str(w)], text)
        assert r.returncode == 0, r.stderr
        assert r.stdout.decode() == ref(text, w, False), w


def test_sample_justified():
    text = open("/app/sample.txt").read()
    for w in (12, 25, 40):
        r = run(["--width", str(w), "--justify"], text)
        assert r.returncode == 0, r.stderr
        assert r.stdout.decode() == ref(text, w, True), w


@pytest.mark.parametrize("seed", range(6))
def test_random_inputs(seed):
    rng = random.Random(1000 + seed)
    for _ in range(8):
        text = gen_text(rng)
        w = rng.randint(10, 60)
        j = rng.random() < 0.5
        r = run(["--width", str(w)] + (["--justify"] if j else []), text)
        assert r.returncode == 0, r.stderr
        assert r.stdout.decode() == ref(text, w, j), (w, j, text)


def test_long_word_piece_joins_next_words():
    text = "abcdefghijklmnopqrstuvwxy ab cd ef\n"
    r = run(["--width", "10"], text)
    assert r.stdout.decode() == "abcdefghij\nklmnopqrst\nuvwxy ab\ncd ef\n"


def test_empty_input():
    r = run(["--width", "20"], " \n\t\n\n")
    assert r.returncode == 0
    assert r.stdout == b""


@pytest.mark.parametrize("args", [[], ["--width", "9"], ["--width", "abc"], ["--justify"]])
def test_bad_width(args):
    r = run(args, "hello world\n")
    assert r.returncode == 2
    assert r.stdout == b""
    assert r.stderr.strip() != b""
