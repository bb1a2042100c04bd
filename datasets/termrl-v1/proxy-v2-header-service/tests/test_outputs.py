"""The service is started here; PROXY v2 headers (addresses, TLVs, checksums, corruptions) are generated here."""
import ipaddress
import json
import os
import random
import signal
import socket
import struct
import subprocess
import time

import pytest

RNG = random.Random(2)
SIG = b"\r\n\r\n\x00\r\nQUIT\n"


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ (0x82F63B78 & -(c & 1))
    return c ^ 0xFFFFFFFF


assert crc32c(b"123456789") == 0xE3069283  # the standard check value


def header(cmd=1, fam=1, proto=1, addr=b"", tlvs=(), crc=False, ver=2, length_delta=0):
    body = addr + b"".join(bytes([t]) + struct.pack("!H", len(v)) + v for t, v in tlvs)
    if crc:
        body += b"\x03\x00\x04\x00\x00\x00\x00"
    h = SIG + bytes([ver << 4 | cmd, fam << 4 | proto]) + struct.pack("!H", len(body) + length_delta) + body
    if crc:
        h = h[:-4] + struct.pack("!I", crc32c(h))
    return h


def inet():
    a, b = ipaddress.IPv4Address(RNG.getrandbits(32)), ipaddress.IPv4Address(RNG.getrandbits(32))
    p, q = RNG.randrange(1, 65536), RNG.randrange(1, 65536)
    return a.packed + b.packed + struct.pack("!HH", p, q), f"{a}:{p}", f"{b}:{q}"


def inet6():
    a = ipaddress.IPv6Address(RNG.getrandbits(128) & ~((1 << 64) - 1) if RNG.random() < 0.5 else RNG.getrandbits(128))
    b = ipaddress.IPv6Address("2001:db8::" + format(RNG.randrange(65536), "x"))
    p, q = RNG.randrange(1, 65536), RNG.randrange(1, 65536)
    return a.packed + b.packed + struct.pack("!HH", p, q), f"[{a}]:{p}", f"[{b}]:{q}"


def unix():
    s, d = f"/run/{RNG.randrange(1000)}.sock", "/var/lb/" + "x" * RNG.randrange(1, 90)
    return s.encode().ljust(108, b"\0") + d.encode().ljust(108, b"\0"), s, d


@pytest.fixture(scope="module")
def port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    proc = subprocess.Popen(["bash", "/app/pp2/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, PP2_PORT=str(port)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok, deadline = False, time.time() + 30
    while not ok and time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            ok = True
        except OSError:
            time.sleep(0.1)
    yield port if ok else None
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def send(port, data, pieces=1, then=b""):
    assert port, "the service did not start listening"
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    cuts = sorted(RNG.sample(range(1, len(data)), min(pieces - 1, len(data) - 1))) if pieces > 1 else []
    for a, b in zip([0] + cuts, cuts + [len(data)]):
        s.sendall(data[a:b])
        if pieces > 1:
            time.sleep(0.01)
    f = s.makefile("rb")
    try:
        first = f.readline().decode().rstrip("\n")
    except ConnectionResetError:
        first = ""
    return s, f, first


def info(port, data, **kw):
    s, f, first = send(port, data, **kw)
    s.close()
    assert first.startswith("{"), first
    return json.loads(first)


def test_inet_and_inet6(port):
    for make, fam in ((inet, "inet"), (inet6, "inet6")):
        for _ in range(5):
            addr, src, dst = make()
            proto = RNG.choice([1, 2])
            got = info(port, header(1, 1 if fam == "inet" else 2, proto, addr))
            assert got == {"command": "PROXY", "family": fam, "protocol": ["unspec", "stream", "dgram"][proto],
                           "src": src, "dst": dst, "tlvs": {}}


def test_unix_local_and_unspec(port):
    addr, src, dst = unix()
    assert info(port, header(1, 3, 1, addr)) == {"command": "PROXY", "family": "unix", "protocol": "stream",
                                                  "src": src, "dst": dst, "tlvs": {}}
    addr, _, _ = inet()
    assert info(port, header(0, 1, 1, addr)) == {"command": "LOCAL", "family": "inet", "protocol": "stream",
                                                  "src": None, "dst": None, "tlvs": {}}
    assert info(port, header(0, 0, 0, b"")) == {"command": "LOCAL", "family": "unspec", "protocol": "unspec",
                                                 "src": None, "dst": None, "tlvs": {}}
    got = info(port, header(1, 0, 0, b"", tlvs=[(0xE0, b"\x01\x02")]))
    assert got["src"] is None and got["family"] == "unspec" and got["tlvs"] == {"224": "0102"}


def test_tlvs_and_checksum(port):
    addr, src, dst = inet()
    tlvs = [(0x01, b"h2"), (0x02, "api.example.test".encode()), (0x05, os.urandom(16)), (0xE1, b""), (0x01, b"http/1.1")]
    got = info(port, header(1, 1, 1, addr, tlvs=tlvs, crc=True), pieces=7)
    h = header(1, 1, 1, addr, tlvs=tlvs, crc=True)
    want = {str(t): v.hex() for t, v in tlvs}
    want["3"] = h[-4:].hex()
    assert got["tlvs"] == want and got["src"] == src
    bad = bytearray(h)
    bad[-1] ^= 0x40
    assert send(port, bytes(bad))[2] == "ERR checksum"
    bad = bytearray(h)
    bad[17] ^= 0x01  # an address byte changed after the checksum was computed
    assert send(port, bytes(bad))[2] == "ERR checksum"


def test_bad_headers(port):
    addr, _, _ = inet()
    cases = [b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", SIG[:-1] + b"X" + header(1, 1, 1, addr)[12:],
             header(1, 1, 1, addr, ver=1), header(2, 1, 1, addr), header(1, 4, 1, addr), header(1, 1, 3, addr),
             header(1, 2, 1, addr), header(1, 1, 1, addr, tlvs=[(0xE0, b"abcd")], length_delta=-2),
             header(1, 3, 1, addr)]
    for i, c in enumerate(cases):
        assert send(port, c)[2] == "ERR bad header", i


def test_echo_after_split_header(port):
    addr, src, _ = inet6()
    s, f, first = send(port, header(1, 2, 1, addr, tlvs=[(0x02, b"x.test")]), pieces=len(addr))
    assert json.loads(first)["src"] == src
    for line in (b"hello\n", b"PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\n", os.urandom(20).hex().encode() + b"\n"):
        s.sendall(line)
        assert f.readline() == line
    s.close()
