"""/app/mdwrap on Markdown documents generated here from known blocks (paragraphs with wide, combining
and code-span words and hard breaks, list items, nested quotes, fences, headings, tables); the
expected output is rendered from those blocks by the rules of the instruction."""
import os
import random
import subprocess
import unicodedata

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/mdwrap"
LATIN = ["alpha", "beta", "gamma", "delta", "edge", "pool", "reload", "a", "of", "TLS", "hosts", "über",
         "naïve", "config,", "routes.", "(see", "above)", "x", "deploy", "keep-alive", "service"]
WIDE = ["東京", "ソウル", "プール", "障害時", "データ", "서울", "운영", "全角ＡＢ"]
COMBINING = ["e\u0301te\u0301", "pin\u0303a", "a\u0308o\u0308u\u0308", "fam\u200dily"]


def dwidth(s):
    return sum(0 if unicodedata.combining(c) or c == "\u200d" else
               2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in s)


def word():
    r = RNG.random()
    if r < 0.12:
        return RNG.choice(WIDE)
    if r < 0.2:
        return RNG.choice(COMBINING)
    if r < 0.28:
        return "`" + " ".join(RNG.choice(LATIN) for _ in range(RNG.randint(1, 3))) + "`"
    if r < 0.3:
        return "https://internal.example.test/" + "/".join(RNG.choice(LATIN) for _ in range(RNG.randint(4, 12)))
    return RNG.choice(LATIN)


def para_lines(n_words):
    """Raw lines of a paragraph/item text: random line splits, some hard breaks; returns (lines, words)."""
    ws = [word() for _ in range(n_words)]
    lines, cur = [], []
    for i, w in enumerate(ws):
        cur.append(w)
        if RNG.random() < 0.15 or i == len(ws) - 1:
            sep = " " * RNG.choice([1, 1, 2])
            end = RNG.choice(["", "", "", " ", "  ", "   "]) if i < len(ws) - 1 else ""
            lines.append(sep.join(cur) + end)
            cur = []
    return lines


# ---- the expected rendering, from the blocks ----
def split_words(text):
    out, cur, code = [], "", False
    for c in text:
        code = (not code) if c == "`" else code
        if c.isspace() and not code:
            if cur:
                out.append(cur)
            cur = ""
        else:
            cur += c
    return out + ([cur] if cur else [])


def fill(lines, width):
    out, pending = [], []
    chunks = []
    for raw in lines:
        pending.append(raw.strip())
        if raw.endswith("  "):
            chunks.append((" ".join(pending), True))
            pending = []
    if pending:
        chunks.append((" ".join(pending), False))
    for text, hard in chunks:
        cur = None
        for w in split_words(text):
            if cur is not None and dwidth(cur) + 1 + dwidth(w) <= width:
                cur += " " + w
            else:
                if cur is not None:
                    out.append(cur)
                cur = w
        out.append(cur + ("  " if hard else ""))
    return out


def render(blocks, width):
    out = []
    for b in blocks:
        kind = b[0]
        if kind in ("verbatim",):
            out += b[1]
        elif kind == "blank":
            out.append("")
        elif kind == "para":
            out += fill(b[1], width)
        elif kind == "item":
            marker = b[1]
            body = fill(b[2], width - len(marker))
            out += [(marker if i == 0 else " " * len(marker)) + x for i, x in enumerate(body)]
        elif kind == "quote":
            out += ["> " + x if x else ">" for x in render(b[1], width - 2)]
    return out


def source(blocks):
    out = []
    for b in blocks:
        kind = b[0]
        if kind == "verbatim":
            out += b[1]
        elif kind == "blank":
            out.append(RNG.choice(["", "  "]))
        elif kind == "para":
            out += b[1]
        elif kind == "item":
            out.append(b[1] + b[2][0])
            out += [" " * RNG.randint(1, 4) + x for x in b[2][1:]]
        elif kind == "quote":
            for x in source(b[1]):
                out.append(">" if not x.strip() and RNG.random() < 0.5 else
                           ("> " + x if x.startswith(" ") or RNG.random() < 0.7 else ">" + x))
    return out


def gen_blocks(depth=0, n=None):
    blocks = []
    for k in range(n or RNG.randint(5, 9)):
        r = RNG.random()
        if r < 0.35:
            blocks.append(("para", para_lines(RNG.randint(3, 40))))
        elif r < 0.55:
            for i in range(RNG.randint(1, 3)):
                marker = RNG.choice(["- ", "* ", f"{RNG.randint(1, 120)}. "])
                blocks.append(("item", marker, para_lines(RNG.randint(2, 25))))
        elif r < 0.65 and depth < 2:
            blocks.append(("quote", gen_blocks(depth + 1, RNG.randint(1, 3))))
        elif r < 0.72:
            blocks.append(("verbatim", ["# " + " ".join(word() for _ in range(RNG.randint(5, 25)))]))
        elif r < 0.8:
            blocks.append(("verbatim", ["| a | b |", "|---|---|", "| " + " ".join(word() for _ in range(20)) + " | 1 |"]))
        elif r < 0.88:
            blocks.append(("verbatim", ["```", " ".join(word() for _ in range(30)), "", "  > not a quote", "- not a list", "```"]))
        else:
            blocks.append(("para", para_lines(RNG.randint(1, 5))))
        blocks.append(("blank",))
    return blocks[:-1]


def run(text, tmp_path, width=None):
    f = tmp_path / f"doc{RNG.randrange(10**6)}.md"
    f.write_text(text, encoding="utf-8")
    args = [TOOL] + (["--width", str(width)] if width else []) + [str(f)]
    r = subprocess.run(args, capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-1000:]
    return r.stdout.decode("utf-8")


def check(blocks, tmp_path, width):
    text = "\n".join(source(blocks)) + "\n"
    want = "".join(x + "\n" for x in render(blocks, width))
    got = run(text, tmp_path, width)
    if got != want:
        g, w = got.split("\n"), want.split("\n")
        i = next(k for k in range(min(len(g), len(w))) if g[k] != w[k]) if any(
            a != b for a, b in zip(g, w)) else min(len(g), len(w))
        pytest.fail(f"width {width}: first difference at output line {i + 1}:\n got: {g[i:i + 2]!r}\nwant: {w[i:i + 2]!r}")
    return got


def test_paragraphs_wide_combining_and_code_spans(tmp_path):
    for width in (24, 40, 72):
        check([("para", para_lines(RNG.randint(30, 80)))], tmp_path, width)


def test_list_items_and_continuations(tmp_path):
    blocks = []
    for _ in range(6):
        blocks.append(("item", RNG.choice(["- ", "* ", f"{RNG.randint(1, 999)}. "]), para_lines(RNG.randint(5, 30))))
    blocks += [("blank",), ("para", para_lines(10))]
    check(blocks, tmp_path, RNG.choice([30, 50]))


def test_nested_quotes_with_lists_and_fences(tmp_path):
    inner = [("para", para_lines(20)), ("item", "- ", para_lines(12)), ("item", "2. ", para_lines(12)),
             ("blank",), ("quote", [("para", para_lines(25)), ("blank",), ("verbatim", ["```", "x  y", "```"])])]
    check([("quote", inner), ("blank",), ("para", para_lines(8))], tmp_path, RNG.choice([34, 60]))


def test_verbatim_blocks_untouched(tmp_path):
    long = " ".join(word() for _ in range(40))
    blocks = [("verbatim", ["# " + long]), ("blank",), ("verbatim", ["| " + long + " |"]), ("blank",),
              ("verbatim", ["```", long, "", "- " + long, "> " + long, "```"]), ("blank",), ("blank",),
              ("para", para_lines(15))]
    check(blocks, tmp_path, 30)


@pytest.mark.parametrize("round_", range(3))
def test_random_documents_and_idempotence(tmp_path, round_):
    width = RNG.choice([20, 28, 45, 72, 100])
    got = check(gen_blocks(), tmp_path, width)
    assert run(got, tmp_path, width) == got, "not idempotent"


def test_default_width_and_the_guide(tmp_path):
    blocks = [("para", para_lines(60)), ("blank",), ("item", "- ", para_lines(40))]
    text = "\n".join(source(blocks)) + "\n"
    assert run(text, tmp_path) == "".join(x + "\n" for x in render(blocks, 72))
    out = subprocess.run([TOOL, "--width", "50", "/app/docs/guide.md"], capture_output=True, timeout=60)
    assert out.returncode == 0
    lines = out.stdout.decode().split("\n")
    assert lines[0].startswith("# Deploying") and len(lines[0]) > 50
    assert "> - check the pool health first" in lines
    assert any(x.strip() == "edge reload --graceful --timeout 30s --pool eu --pool us --pool ap --verbose --log-file /var/log/edge/reload.log" for x in lines)
    body = [x for x in lines if x and not x.startswith(("#", "|", "edge reload"))]
    assert all(dwidth(x.rstrip(" ")) <= 50 for x in body if len(split_words(x.lstrip("> "))) > 1)
