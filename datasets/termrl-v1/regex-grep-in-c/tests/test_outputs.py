import random
import re
import subprocess
import time

import pytest
import resource


def cpu_seconds():
    """CPU time of this process and its finished children. Speed limits use it instead of wall-clock
    time, which grows when other work loads the machine."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


@pytest.fixture(scope="module")
def mgrep(tmp_path_factory):
    src = open("/app/mgrep.c").read()
    assert "regex.h" not in src and "pcre" not in src.lower()
    out = str(tmp_path_factory.mktemp("b") / "mgrep")
    r = subprocess.run(["gcc", "-O2", "-std=c11", "-o", out, "/app/mgrep.c"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out


def grep(exe, pat, lines, timeout=30):
    return subprocess.run([exe, pat], input="".join(l + "\n" for l in lines), capture_output=True, text=True,
                          timeout=timeout)


def expect(exe, pat, lines):
    r = grep(exe, pat, lines)
    want = [l for l in lines if re.search(pat, l)]
    assert r.returncode == (0 if want else 1), (pat, r.stderr)
    assert r.stdout == "".join(l + "\n" for l in want), pat


LINES = ["", "a", "ab", "abc", "aab", "ba", "cab", "abcabc", "xyz", "a.b", "a*b", "(a)", "[x]", "a|b", "^a$",
         "back\\slash", "}{", "-", "aaaa", "bbbb", "acbd", "Abc", "a b c"]


def test_literals_and_dot(mgrep):
    for pat in ["a", "ab", "b.", "c$", "^a", "^$", "a.c", "x", "zzz", "", "}{"]:
        expect(mgrep, pat, LINES)


def test_classes(mgrep):
    for pat in ["[ab]c", "[^a]", "^[a-c]+$", "[x-z]", "[-a]$", "[a-]", r"[\]x]", r"[\^]", "[^ab]+", r"[\\]"]:
        expect(mgrep, pat, LINES)


def test_groups_alternation_quantifiers(mgrep):
    for pat in ["(ab)+", "a|x", "(a|b)*c", "^(a|b)+$", "ab?c", "a(b|)c", "()", "a|", "(^a|c$)", "(a)(b)?",
                r"\(a\)", r"a\*b", r"a\.b", r"a\|b", r"\^a\$", r"\\", "b}", "]"]:
        expect(mgrep, pat, LINES)


def test_invalid_patterns(mgrep):
    for pat in ["*a", "a**", "a+?", "(ab", "ab)", "[ab", "[]", "[b-a]", "a\\", r"\d", "(*a)", "a|*b", "^*", "(|+)"]:
        r = grep(mgrep, pat, ["a"])
        assert r.returncode == 2, pat
        assert r.stdout == "", pat


def gen(rng, depth):
    parts = []
    for _ in range(rng.randint(1, 3)):
        k = rng.random()
        if depth > 0 and k < 0.25:
            inner = "|".join(gen(rng, depth - 1) for _ in range(rng.randint(1, 3)))
            atom = "(" + inner + ")"
        elif k < 0.4:
            atom = rng.choice(["[ab]", "[^a]", "[a-c]", "[^bc]", "[b]"])
        elif k < 0.5:
            atom = "."
        else:
            atom = rng.choice("abc")
        if rng.random() < 0.4:
            atom += rng.choice("*+?")
        parts.append(atom)
    s = "".join(parts)
    if rng.random() < 0.15:
        s = "^" + s
    if rng.random() < 0.15:
        s = s + "$"
    return s


def test_random_against_python(mgrep):
    rng = random.Random(4242)
    lines = ["".join(rng.choice("abcd") for _ in range(rng.randint(0, 12))) for _ in range(60)]
    for _ in range(150):
        expect(mgrep, gen(rng, 2), lines)


def test_pathological_fast(mgrep):
    cases = [("(a*)*b", "a" * 5000, 1), ("(a|aa)*c", "a" * 5000, 1), ("(x+x+)+y", "x" * 5000, 1),
             ("a?" * 25 + "a" * 25, "a" * 24, 1), ("a?" * 25 + "a" * 25, "a" * 25, 0), ("(.*)*(.*)*z", "ab" * 2000, 1),
             ("(a*)*b", "a" * 5000 + "b", 0)]
    for pat, line, rc in cases:
        t = cpu_seconds()
        r = grep(mgrep, pat, [line] * 3, timeout=20)
        assert cpu_seconds() - t < 5, pat
        assert r.returncode == rc, pat


def test_long_lines(mgrep):
    line = "q" * 100000 + "needle" + "q" * 1000
    r = grep(mgrep, "ne+dle", [line, "nope"])
    assert r.returncode == 0 and r.stdout == line + "\n"
