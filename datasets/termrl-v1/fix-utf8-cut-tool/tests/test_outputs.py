import os
import random
import shutil
import subprocess
import tempfile

import pytest

VALID = ["a", "b", "Z", " ", "7", ".", "é", "ö", "ß", "Ж", "€", "中", "文", "😀", "🐍", "\u07ff", "\uffff",
         "\U0010ffff", "\u0800", "\U00010000"]
INVALID = [b"\x80", b"\xbf", b"\xc0\xaf", b"\xc1\x81", b"\xe0\x80\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
           b"\xf5\x80", b"\xff", b"\xe2\x82", b"\xf0\x9f\x98", b"\xe2A", b"\xc3", b"\xf8\x88\x80\x80\x80"]


@pytest.fixture(scope="module")
def ucut():
    d = tempfile.mkdtemp()
    shutil.copy("/app/ucut.c", f"{d}/ucut.c")
    proc = subprocess.run(["gcc", "-O2", "-Wall", "-o", "ucut", "ucut.c"], cwd=d, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    yield f"{d}/ucut"
    shutil.rmtree(d)


# ---------------------------------------------------------------- model of the specification
def char_len(s, i):
    b = s[i]
    if b < 0x80:
        return 1
    lo, hi = 0x80, 0xBF
    if 0xC2 <= b <= 0xDF:
        n = 2
    elif 0xE0 <= b <= 0xEF:
        n = 3
        lo = 0xA0 if b == 0xE0 else lo
        hi = 0x9F if b == 0xED else hi
    elif 0xF0 <= b <= 0xF4:
        n = 4
        lo = 0x90 if b == 0xF0 else lo
        hi = 0x8F if b == 0xF4 else hi
    else:
        return 1
    if len(s) - i < n or not lo <= s[i + 1] <= hi or any(not 0x80 <= c <= 0xBF for c in s[i + 2:i + n]):
        return 1
    return n


def parse_list(text):
    out = []
    for part in text.split(","):
        if "-" not in part:
            out.append((int(part), int(part)))
        else:
            a, b = part.split("-")
            out.append((int(a) if a else 1, int(b) if b else None))
    return out


def model(data, list_text):
    ranges = parse_list(list_text)
    out = bytearray()
    lines = data.split(b"\n")
    for k, line in enumerate(lines):
        pos, i = 0, 0
        while i < len(line):
            n = char_len(line, i)
            pos += 1
            if any(lo <= pos and (hi is None or pos <= hi) for lo, hi in ranges):
                out += line[i:i + n]
            i += n
        if k < len(lines) - 1:
            out += b"\n"
    return bytes(out)


# ---------------------------------------------------------------- generators
def random_list(rng, maxpos):
    parts = []
    for _ in range(rng.randint(1, 4)):
        a = rng.randint(1, maxpos)
        b = rng.randint(a, maxpos + 3)
        parts.append(rng.choice([f"{a}", f"{a}-{b}", f"{a}-", f"-{b}"]))
    return ",".join(parts)


def random_line(rng, n, invalid=0.0, valid=VALID):
    out = bytearray()
    for _ in range(n):
        if rng.random() < invalid:
            out += rng.choice(INVALID)
        else:
            out += rng.choice(valid).encode()
    return bytes(out)


def run(exe, args, data=b""):
    return subprocess.run([exe, *args], input=data, capture_output=True)


def check(exe, data, list_text):
    proc = run(exe, ["-c", list_text], data)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == model(data, list_text), (list_text, data[:200])


# ---------------------------------------------------------------- tests
def test_range_lists_on_ascii(ucut):
    rng = random.Random()
    ascii_only = [c for c in VALID if len(c.encode()) == 1]
    data = b"\n".join(random_line(rng, rng.randint(0, 30), valid=ascii_only) for _ in range(20)) + b"\n"
    for lst in ["1", "3-5", "4-", "-3", "5-6,1-2", "2-4,3-8", "1,1,1", "7-,2", "10-12,1-3,2-11"]:
        check(ucut, data, lst)
    for _ in range(15):
        check(ucut, data, random_list(rng, 30))


def test_multibyte_characters(ucut):
    rng = random.Random()
    for _ in range(15):
        data = b"\n".join(random_line(rng, rng.randint(0, 40)) for _ in range(10)) + b"\n"
        check(ucut, data, random_list(rng, 40))


def test_invalid_bytes_count_as_one_character(ucut):
    rng = random.Random()
    for _ in range(20):
        data = b"\n".join(random_line(rng, rng.randint(1, 40), invalid=0.3) for _ in range(10)) + b"\n"
        check(ucut, data, random_list(rng, 45))
    check(ucut, b"\xe2A\xe2\x82B\xf0\x9f\x98C\n", "2,4,6")


def test_long_lines(ucut):
    rng = random.Random()
    for n in (255, 256, 300, rng.randint(2000, 6000), rng.randint(9000, 20000)):
        data = random_line(rng, n, invalid=0.05) + b"\n" + random_line(rng, 5) + b"\n"
        check(ucut, data, f"{n - 3}-,1-2,{rng.randint(100, 250)}")
        check(ucut, data, random_list(rng, n))


def test_newlines_and_empty_selections(ucut):
    rng = random.Random()
    for end in (b"", b"\n", b"\n\n"):
        data = b"\n".join(random_line(rng, rng.randint(0, 8)) for _ in range(6)) + end
        for lst in ("1", "3-4", "20-"):
            check(ucut, data, lst)
    check(ucut, b"", "1")
    check(ucut, b"\n\n\n", "1-")


def test_several_files_and_a_missing_one(ucut):
    rng = random.Random()
    d = tempfile.mkdtemp()
    try:
        a = random_line(rng, 20) + b"\n" + random_line(rng, 7)        # no final newline
        b = random_line(rng, 15, invalid=0.2) + b"\n"
        stdin = random_line(rng, 9) + b"\n"
        for name, data in (("a", a), ("b", b)):
            with open(f"{d}/{name}", "wb") as fh:
                fh.write(data)
        lst = random_list(rng, 20)
        proc = run(ucut, ["-c", lst, f"{d}/a", f"{d}/missing", f"{d}/b", "-"], stdin)
        assert proc.returncode == 1
        assert proc.stderr
        assert proc.stdout == model(a, lst) + model(b, lst) + model(stdin, lst)
        proc = run(ucut, ["-c", lst, f"{d}/b", f"{d}/a"])
        assert proc.returncode == 0 and proc.stdout == model(b, lst) + model(a, lst)
    finally:
        shutil.rmtree(d)


def test_malformed_lists(ucut):
    for lst in ["", "0", "3-2", "a", "-", "1,,2", "1-2-3", "2,x", "0-4"]:
        proc = run(ucut, ["-c", lst], b"hello\n")
        assert proc.returncode == 2, lst
        assert proc.stdout == b"", lst
