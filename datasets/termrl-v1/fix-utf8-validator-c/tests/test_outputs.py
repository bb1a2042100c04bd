import os
import random
import subprocess

import pytest

SRC = "/app/u8scan.c"
BIN = "/tmp/u8scan_test_bin"


@pytest.fixture(scope="module")
def binary():
    r = subprocess.run(["gcc", "-O2", "-std=c11", "-o", BIN, SRC], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return BIN


def expected(data):
    """Reference: Python's strict UTF-8 decoder."""
    try:
        text = data.decode("utf-8")
        bad = None
    except UnicodeDecodeError as e:
        text = data[:e.start].decode("utf-8")
        bad = e.start
    lines = ["U+%04X" % ord(ch) for ch in text]
    if bad is not None:
        lines.append("ERROR %d" % bad)
    return lines, (0 if bad is None else 1)


def check(binary, tmp_path, data, label):
    p = tmp_path / "in.bin"
    p.write_bytes(data)
    r = subprocess.run([binary, str(p)], capture_output=True, timeout=60)
    want, code = expected(data)
    got = r.stdout.decode("ascii", "replace").splitlines()
    assert (r.returncode, got[-3:]) == (code, want[-3:]) and got == want, \
        f"{label}: input {data[:80]!r}... exit {r.returncode} (want {code}); tail {got[-3:]} (want {want[-3:]})"


def test_valid_text(binary, tmp_path):
    samples = ["plain ascii\n", "h\u00e9llo w\u00f6rld \u20ac \u4e2d\u6587 \U0001F600\U0010FFFF\u0000\u007f",
               "\ud7ff\ue000\uffff\U00010000\u0800\u07ff\u0080", ""]
    for i, s in enumerate(samples):
        check(binary, tmp_path, s.encode("utf-8", "surrogatepass"), f"valid {i}")


def test_overlong_forms(binary, tmp_path):
    for i, b in enumerate([b"\xc0\xaf", b"\xc1\xbf", b"ab\xe0\x80\xaf", b"\xe0\x9f\xbf", b"ok\xf0\x80\x80\xaf",
                           b"\xf0\x8f\xbf\xbf", b"x\xe0\x81\x81y"]):
        check(binary, tmp_path, b, f"overlong {i}")


def test_surrogates_and_range(binary, tmp_path):
    for i, b in enumerate([b"\xed\xa0\x80", b"a\xed\xb0\x80", b"\xed\xbf\xbf", b"\xed\xaf\xbf\xed\xbf\xbf",
                           b"\xed\x9f\xbf\xed\xb2\x80", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xf8\x88\x80\x80\x80",
                           b"\xff", b"\xfe"]):
        check(binary, tmp_path, b, f"surrogate/range {i}")


def test_bad_continuations(binary, tmp_path):
    for i, b in enumerate([b"\x80", b"ab\xbf", b"\xc3\xc3\xa9", b"\xe2\x82\xc3\xa9", b"\xe2\xc2\xa2\xac",
                           b"\xf0\x9f\x98\xf0\x9f\x98\x80", b"\xc3A", b"\xe2\x82A", b"\xe2\xff\x80"]):
        check(binary, tmp_path, b, f"continuation {i}")


def test_truncated_at_end(binary, tmp_path):
    for i, b in enumerate([b"abc\xc3", b"\xe2\x82", b"x\xf0\x9f\x98", b"\xf0", b"\xe2", "\u20ac".encode() + b"\xf4\x8f\xbf"]):
        check(binary, tmp_path, b, f"truncated {i}")


def test_unreadable_file(binary, tmp_path):
    r = subprocess.run([binary, str(tmp_path / "missing")], capture_output=True, timeout=60)
    assert r.returncode == 2


def corrupt(rng, data):
    data = bytearray(data)
    kind = rng.random()
    pos = rng.randrange(len(data) + 1)
    if kind < 0.2 and data:
        data[rng.randrange(len(data))] = rng.randrange(256)
    elif kind < 0.4:
        data[pos:pos] = rng.choice([b"\xc0\x80", b"\xe0\x80\x80", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf4\x90\x80\x80",
                                    b"\xf0\x80\x80\x80", b"\xc2", b"\xe2\x82", b"\x80", b"\xfe", b"\xe0\xa0",
                                    b"\xf7\xbf\xbf\xbf"])
    elif kind < 0.55 and data:
        del data[rng.randrange(len(data)):]
    elif kind < 0.7:
        data += rng.choice([b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xed\xa0"])
    return bytes(data)


def test_random_files(binary, tmp_path):
    rng = random.Random(808)
    pools = [(0x20, 0x7E), (0xA0, 0x7FF), (0x800, 0xD7FF), (0xE000, 0xFFFD), (0x10000, 0x10FFFF)]
    bad = 0
    for i in range(150):
        chars = []
        for _ in range(rng.randint(0, 40)):
            lo, hi = rng.choice(pools)
            chars.append(chr(rng.randint(lo, hi)))
        data = corrupt(rng, "".join(chars).encode("utf-8"))
        bad += expected(data)[1]
        check(binary, tmp_path, data, f"random {i}")
    assert bad >= 40
