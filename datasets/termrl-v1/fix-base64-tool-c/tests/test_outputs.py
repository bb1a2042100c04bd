import base64
import os
import random
import subprocess
import textwrap

import pytest


@pytest.fixture(scope="module")
def b64(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("b") / "b64")
    r = subprocess.run(["gcc", "-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
                        "-o", out, "/app/b64.c"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out


def run(exe, data, *args):
    return subprocess.run([exe, *args], input=data, capture_output=True, timeout=60)


def enc_ref(data, url=False, wrap=76):
    s = (base64.urlsafe_b64encode(data) if url else base64.b64encode(data)).decode()
    if not s:
        return b""
    lines = [s[i:i + wrap] for i in range(0, len(s), wrap)] if wrap else [s]
    return ("\n".join(lines) + "\n").encode()


def test_prebuilt_binary():
    r = run("/app/b64", b"\xff\xfe hi")
    assert r.returncode == 0 and r.stdout == enc_ref(b"\xff\xfe hi")


def test_encode_small_sizes(b64):
    for n in range(0, 12):
        data = bytes((250 + k) % 256 for k in range(n))
        r = run(b64, data)
        assert r.returncode == 0
        assert r.stdout == enc_ref(data), n


def test_encode_binary_random(b64):
    rng = random.Random(3)
    for _ in range(40):
        data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 400)))
        for args, kw in [((), {}), (("-u",), {"url": True}), (("-w", "0"), {"wrap": 0}), (("-w", "10"), {"wrap": 10}),
                         (("-u", "-w", "4"), {"url": True, "wrap": 4})]:
            assert run(b64, data, *args).stdout == enc_ref(data, **kw), (args, len(data))


def test_wrap_exact_multiple(b64):
    data = b"a" * 57  # 76 output chars exactly
    assert run(b64, data).stdout == enc_ref(data)
    assert run(b64, b"abc" * 4, "-w", "8").stdout == b"YWJjYWJj\nYWJjYWJj\n"


def test_decode_roundtrip(b64):
    rng = random.Random(4)
    for _ in range(40):
        data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 300)))
        for url in (False, True):
            enc = enc_ref(data, url=url, wrap=rng.choice([0, 4, 76]))
            enc = enc.replace(b"\n", rng.choice([b"\n", b"\r\n", b" \t\n"]))
            r = run(b64, enc, "-d", *(["-u"] if url else []))
            assert r.returncode == 0, r.stderr
            assert r.stdout == data


def test_decode_rejects(b64):
    bad = [b"abc", b"ab=c", b"a===", b"YQ==YQ==", b"Y===", b"YQ=", b"Y Q =", b"YW\xffJj", b"YWJ*", b"=YWJ",
           b"YWI=x", b"Y\n=\n=\n="]
    for s in bad:
        r = run(b64, s, "-d")
        assert r.returncode == 1, s
        assert b"invalid" in r.stderr
    assert run(b64, b"YW-_", "-d").returncode == 1
    assert run(b64, b"YW+/", "-d", "-u").returncode == 1
    assert run(b64, b"YW-_", "-d", "-u").returncode == 0
    assert run(b64, b"", "-d").returncode == 0


def test_large_input(b64):
    data = os.urandom(3 * 1024 * 1024 + 1)
    r = run(b64, data, "-w", "0")
    assert r.stdout == enc_ref(data, wrap=0)
    assert run(b64, r.stdout, "-d").stdout == data
