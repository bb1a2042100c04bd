import os
import random
import subprocess

import pytest


@pytest.fixture(scope="module")
def rle(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("b") / "rle")
    r = subprocess.run(["gcc", "-O2", "-Wall", "-o", out, "/app/rle.c"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out


def ref_encode(data):
    out = bytearray()
    i = 0
    while i < len(data):
        j = i
        while j < len(data) and data[j] == data[i] and j - i < 255:
            j += 1
        out += bytes([j - i, data[i]])
        i = j
    return bytes(out)


def run(exe, flag, data):
    return subprocess.run([exe, flag], input=data, capture_output=True, timeout=30)


def test_prebuilt_binary_works():
    r = run("/app/rle", "-e", b"aaab")
    assert r.returncode == 0 and r.stdout == b"\x03a\x01b"


def test_encode_basic(rle):
    assert run(rle, "-e", b"").stdout == b""
    assert run(rle, "-e", b"\x00\x00\xff").stdout == b"\x02\x00\x01\xff"
    assert run(rle, "-e", b"abc").stdout == b"\x01a\x01b\x01c"


def test_long_runs_split(rle):
    assert run(rle, "-e", b"z" * 255).stdout == b"\xffz"
    assert run(rle, "-e", b"z" * 256).stdout == b"\xffz\x01z"
    assert run(rle, "-e", b"\x00" * 600 + b"\x01").stdout == b"\xff\x00\xff\x00\x5a\x00\x01\x01"


def test_random_roundtrip(rle):
    rng = random.Random(17)
    for _ in range(40):
        data = bytearray()
        for _ in range(rng.randint(0, 60)):
            data += bytes([rng.randrange(256)]) * rng.choice([1, 1, 2, 5, 254, 255, 256, 700])
        data = bytes(data)
        enc = run(rle, "-e", data)
        assert enc.returncode == 0
        assert enc.stdout == ref_encode(data)
        dec = run(rle, "-d", enc.stdout)
        assert dec.returncode == 0 and dec.stdout == data


def test_large_input(rle):
    data = os.urandom(0) + bytes(random.Random(5).randrange(4) for _ in range(2_000_000))
    enc = run(rle, "-e", data)
    assert enc.stdout == ref_encode(data)
    assert run(rle, "-d", enc.stdout).stdout == data


def test_decode_errors(rle):
    assert run(rle, "-d", b"\x02a\x01").returncode == 1
    assert run(rle, "-d", b"\x02a\x00b").returncode == 1
    assert run(rle, "-d", b"").returncode == 0
    assert run(rle, "-d", b"\x03\x00").stdout == b"\x00\x00\x00"


def test_usage(rle):
    for args in ([], ["-x"], ["-e", "-d"]):
        r = subprocess.run([rle, *args], input=b"", capture_output=True)
        assert r.returncode == 2
