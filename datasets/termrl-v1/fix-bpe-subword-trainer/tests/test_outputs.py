import json
import os
import random
import subprocess
import tempfile
from collections import Counter

import pytest

BPE = os.environ.get("BPE_PY", "/app/bpe/bpe.py")
EOW = "</w>"


# ------------------------------------------------------------ reference
def word_symbols(w):
    return list(w[:-1]) + [w[-1] + EOW]


def merge_word(sym, a, b):
    out, i = [], 0
    while i < len(sym):
        if i + 1 < len(sym) and sym[i] == a and sym[i + 1] == b:
            out.append(a + b)
            i += 2
        else:
            out.append(sym[i])
            i += 1
    return out


def train_ref(text, n):
    freq = Counter(text.split())
    words = {w: word_symbols(w) for w in freq}
    merges = []
    for _ in range(n):
        stats = Counter()
        for w, sym in words.items():
            f = freq[w]
            for p in zip(sym, sym[1:]):
                stats[p] += f
        if not stats:
            break
        best = min(stats, key=lambda p: (-stats[p], p))
        merges.append(list(best))
        for w in words:
            words[w] = merge_word(words[w], *best)
    return merges


def encode_word(w, ranks):
    sym = word_symbols(w)
    while True:
        cands = [(ranks[p], p) for p in zip(sym, sym[1:]) if p in ranks]
        if not cands:
            return sym
        _, (a, b) = min(cands)
        sym = merge_word(sym, a, b)


def encode_line(line, merges):
    ranks = {tuple(m): i for i, m in enumerate(merges)}
    out = []
    for w in line.split():
        out.extend(encode_word(w, ranks))
    return " ".join(out)


# ------------------------------------------------------------ corpora
SYLL = ["ba", "na", "an", "ta", "to", "lo", "ol", "ra", "ar", "ka", "é", "ss", "ß", "日本", "x", "ab",
        "re", "er", "in", "ni", "a", "n", "o", "-", "'", "ing", "th", "he", "ea"]


def make_words(rng, nvocab):
    vocab = set()
    while len(vocab) < nvocab:
        k = rng.randint(1, 5)
        w = "".join(rng.choice(SYLL) for _ in range(k))
        if rng.random() < 0.15:
            w = w * rng.randint(2, 3)
        if rng.random() < 0.05:
            w = rng.choice("aob") * rng.randint(2, 9)
        vocab.add(w)
    return sorted(vocab)


def make_text(rng, words, nlines):
    weights = [1.0 / (i + 1) for i in range(len(words))]
    lines = []
    for _ in range(nlines):
        ws = rng.choices(words, weights, k=rng.randint(0, 12))
        line = ""
        for w in ws:
            line += rng.choice([" ", " ", " ", "  ", "\t", " \t "]) + w
        line += rng.choice(["", " ", "\t"])
        lines.append(line)
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def tmp():
    with tempfile.TemporaryDirectory() as d:
        yield d


def train(tmp, text, n, name="c"):
    corpus = os.path.join(tmp, name + ".txt")
    model = os.path.join(tmp, name + ".json")
    with open(corpus, "w", encoding="utf-8") as f:
        f.write(text)
    r = subprocess.run(["python3", BPE, "train", corpus, str(n), model],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    with open(model, encoding="utf-8") as f:
        m = json.load(f)
    assert m["version"] == 1
    return model, m["merges"]


def encode(model, text):
    r = subprocess.run(["python3", BPE, "encode", model], input=text.encode("utf-8"),
                       capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout.decode("utf-8").split("\n")[:-1]


def write_model(tmp, merges, name):
    p = os.path.join(tmp, name + ".json")
    with open(p, "w", encoding="utf-8") as f:
        json.dump({"version": 1, "merges": merges}, f, ensure_ascii=False)
    return p


def first_diff(got, want):
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            return f"merge #{i}: got {g}, want {w}"
    return f"lengths {len(got)} vs {len(want)}"


# ------------------------------------------------------------ tests
def test_train_random_corpora(tmp):
    for seed in (501, 502, 503):
        rng = random.Random(seed)
        text = make_text(rng, make_words(rng, 150), 400)
        n = rng.randint(60, 120)
        _, got = train(tmp, text, n, f"r{seed}")
        want = train_ref(text, n)
        assert got == want, first_diff(got, want)


def test_train_tie_breaking(tmp):
    # every word once: many pairs share the top count
    rng = random.Random(504)
    words = ["".join(rng.choice("abcdefgh") for _ in range(rng.randint(2, 7))) for _ in range(120)]
    text = " ".join(words) + "\n"
    _, got = train(tmp, text, 40, "ties")
    want = train_ref(text, 40)
    assert got == want, first_diff(got, want)
    _, got = train(tmp, "zy ab\nab zy\nqq\n", 3, "ties2")
    assert got == train_ref("zy ab\nab zy\nqq\n", 3)


def test_train_repeated_symbols(tmp):
    text = ("banana " * 7 + "aaaa " * 5 + "abababab " * 3 + "nana ana " * 4 + "oooooo o oo\n") * 3
    for n in (4, 9, 20):
        _, got = train(tmp, text, n, f"rep{n}")
        want = train_ref(text, n)
        assert got == want, first_diff(got, want)


def test_train_symbol_boundaries(tmp):
    # merges whose halves also end/start other symbols
    text = "xab " * 6 + "ab " * 5 + "xa " * 8 + "bab " * 4 + "abx\tabab\n" * 3
    for n in (3, 6, 12):
        _, got = train(tmp, text, n, f"bnd{n}")
        want = train_ref(text, n)
        assert got == want, first_diff(got, want)


def test_train_whitespace_and_exhaustion(tmp):
    text = "to\tto  too\r\n\t tot\n\n   t\n o\tot to\n"
    _, got = train(tmp, text, 1000, "ws")
    want = train_ref(text, 1000)
    assert len(want) < 1000
    assert got == want, first_diff(got, want)
    _, got = train(tmp, text, 0, "ws0")
    assert got == []


def test_encode_with_given_model(tmp):
    rng = random.Random(506)
    words = make_words(rng, 120)
    merges = train_ref(make_text(rng, words, 300), 150)
    model = write_model(tmp, merges, "given")
    more = words + make_words(random.Random(507), 60) + ["qqq", "ßß", "日本日本x", "b", "a"]
    text = make_text(rng, more, 200)
    got = encode(model, text)
    lines = text.split("\n")[:-1]
    assert len(got) == len(lines)
    for line, g in zip(lines, got):
        assert g == encode_line(line, merges), line


def test_encode_symbol_boundaries(tmp):
    merges = [["x", "a"], ["a", "b</w>"], ["b", "a"], ["a", "b"], ["ab", "ab</w>"], ["xa", "b</w>"]]
    model = write_model(tmp, merges, "bnd")
    text = "xab ab abab bab xaab xxab\nbaab ba xaxa baba\n  babab\tababa xabxa\n"
    got = encode(model, text)
    want = [encode_line(l, merges) for l in text.split("\n")[:-1]]
    assert got == want


def test_train_then_encode_roundtrip(tmp):
    rng = random.Random(508)
    words = make_words(rng, 200)
    text = make_text(rng, words, 500)
    model, got = train(tmp, text, 200, "rt")
    want = train_ref(text, 200)
    assert got == want, first_diff(got, want)
    sample = make_text(random.Random(509), words + ["unseenword", "zzz"], 80)
    enc = encode(model, sample)
    assert enc == [encode_line(l, want) for l in sample.split("\n")[:-1]]
    for line, e in zip(sample.split("\n")[:-1], enc):
        assert "".join(t for t in e.split()).replace(EOW, "") == "".join(line.split())
