"""A STUN client written here checks the server byte for byte; accounts, transaction ids and attributes are generated per test."""
import binascii
import hashlib
import hmac
import os
import random
import signal
import socket
import struct
import tempfile
import time
import subprocess

import pytest

TIMEOUT = 120  # hang guard for socket reads only
COOKIE = 0x2112A442
USERNAME, MI, ERROR_CODE, UNKNOWN, REALM, NONCE, XMA, SOFTWARE, FINGERPRINT = 0x6, 0x8, 0x9, 0xA, 0x14, 0x15, 0x20, 0x8022, 0x8028
REASONS = {400: b"Bad Request", 401: b"Unauthorized", 420: b"Unknown Attribute", 438: b"Stale Nonce"}
RNG = random.Random(3478)
REALM_V = b"rtc-%d.example.test" % RNG.randrange(10 ** 6)
ACCOUNTS = {b"alice": b"pw-%d" % RNG.randrange(10 ** 9), b"bob": b"b0b:with=odd:chars", b"carol.x": b"\xc3\xa9t\xc3\xa9"}
DIR = tempfile.mkdtemp(prefix="stun")


def free_port():
    u, t = socket.socket(socket.AF_INET, socket.SOCK_DGRAM), socket.socket()
    for _ in range(50):
        u.bind(("127.0.0.1", 0))
        port = u.getsockname()[1]
        try:
            t.bind(("127.0.0.1", port))
            break
        except OSError:
            u.close()
            u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.close()
    t.close()
    return port


PORT = free_port()


@pytest.fixture(scope="module", autouse=True)
def server():
    with open(f"{DIR}/stun.conf", "wb") as f:
        f.write(b"# generated\nrealm = " + REALM_V + b"\n")
        for u, p in ACCOUNTS.items():
            f.write(b"user " + u + b" = " + p + b"\n")
    proc = subprocess.Popen(["bash", "/app/stun/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, STUN_PORT=str(PORT), STUN_CONF=f"{DIR}/stun.conf"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline, ready = time.time() + 240, False  # hang guard only
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    probe.settimeout(1)
    while not ready and time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=5).close()
            probe.sendto(build(0x0001, os.urandom(12), []), ("127.0.0.1", PORT))
            probe.recvfrom(65535)
            ready = True
        except OSError:
            time.sleep(0.2)
    probe.close()
    if not ready:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the server did not answer on UDP and TCP")
    yield
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def attr(t, v):
    return struct.pack(">HH", t, len(v)) + v + b"\0" * (-len(v) % 4)


def key_for(user, realm=REALM_V, password=None):
    return hashlib.md5(user + b":" + realm + b":" + (password if password is not None else ACCOUNTS[user])).digest()


def build(mtype, tid, attrs, key=None, fingerprint=False, after_mi=()):
    body = b"".join(attr(t, v) for t, v in attrs)
    if key is not None:
        head = struct.pack(">HHI", mtype, len(body) + 24, COOKIE) + tid
        body += attr(MI, hmac.new(key, head + body, hashlib.sha1).digest())
    body += b"".join(attr(t, v) for t, v in after_mi)
    if fingerprint:
        head = struct.pack(">HHI", mtype, len(body) + 8, COOKIE) + tid
        body += attr(FINGERPRINT, struct.pack(">I", binascii.crc32(head + body) ^ 0x5354554E))
    return struct.pack(">HHI", mtype, len(body), COOKIE) + tid + body


def error(code, tid, extra=(), key=None, fp=False):
    return build(0x0111, tid, [(ERROR_CODE, struct.pack(">HBB", 0, code // 100, code % 100) + REASONS[code])] + list(extra), key, fp)


def parse(msg):
    mtype, length, cookie = struct.unpack(">HHI", msg[:8])
    assert cookie == COOKIE and length == len(msg) - 20
    attrs, pos = [], 20
    while pos < len(msg):
        t, n = struct.unpack(">HH", msg[pos:pos + 4])
        attrs.append((t, msg[pos + 4:pos + 4 + n]))
        pos += 4 + n + (-n % 4)
    return mtype, attrs


def xma(host, port):
    addr = struct.unpack(">I", socket.inet_aton(host))[0]
    return struct.pack(">BBHI", 0, 1, port ^ (COOKIE >> 16), addr ^ COOKIE)


class Udp:
    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(TIMEOUT)
        self.port = self.sock.getsockname()[1]

    def ask(self, msg):
        self.sock.sendto(msg, ("127.0.0.1", PORT))
        data, _ = self.sock.recvfrom(65535)
        return data

    def nonce(self):
        tid = os.urandom(12)
        got = self.ask(build(0x0001, tid, [(SOFTWARE, b"probe")]))
        mtype, attrs = parse(got)
        assert got[8:20] == tid and mtype == 0x0111, "a request without MESSAGE-INTEGRITY gets a 401 error response"
        assert [t for t, _ in attrs] == [ERROR_CODE, REALM, NONCE], f"attributes {[hex(t) for t, _ in attrs]}"
        assert attrs[0][1] == struct.pack(">HBB", 0, 4, 1) + b"Unauthorized" and attrs[1][1] == REALM_V
        assert 0 < len(attrs[2][1]) < 128
        return attrs[2][1]

    def silent(self, msg):
        """No reply to msg: the reply to a following good request must be the next datagram."""
        self.sock.sendto(msg, ("127.0.0.1", PORT))
        tid = os.urandom(12)
        got = self.ask(build(0x0001, tid, []))
        assert got[8:20] == tid, "expected no response to the previous message"


def auth_attrs(user, nonce, realm=REALM_V, extra=()):
    return [(USERNAME, user)] + list(extra) + [(REALM, realm), (NONCE, nonce)]


def test_challenge_then_binding_success():
    c = Udp()
    nonce = c.nonce()
    for user in ACCOUNTS:
        tid = os.urandom(12)
        req = build(0x0001, tid, auth_attrs(user, nonce, extra=[(SOFTWARE, b"termrl test client")]), key_for(user))
        want = build(0x0101, tid, [(XMA, xma("127.0.0.1", c.port))], key_for(user))
        assert c.ask(req) == want


def test_fingerprint_handling():
    c = Udp()
    nonce = c.nonce()
    tid = os.urandom(12)
    req = build(0x0001, tid, auth_attrs(b"alice", nonce), key_for(b"alice"), fingerprint=True)
    assert c.ask(req) == build(0x0101, tid, [(XMA, xma("127.0.0.1", c.port))], key_for(b"alice"), fingerprint=True)
    tid = os.urandom(12)
    challenge = c.ask(build(0x0001, tid, [], fingerprint=True))
    mtype, attrs = parse(challenge)
    assert [t for t, _ in attrs] == [ERROR_CODE, REALM, NONCE, FINGERPRINT]
    assert challenge == error(401, tid, attrs[1:3], fp=True)
    bad = bytearray(build(0x0001, os.urandom(12), auth_attrs(b"alice", nonce), key_for(b"alice"), fingerprint=True))
    bad[-1] ^= 0x40
    c.silent(bytes(bad))  # a wrong FINGERPRINT: discarded


def test_authentication_failures():
    c = Udp()
    nonce = c.nonce()
    cases = [build(0x0001, os.urandom(12), auth_attrs(b"alice", nonce), key_for(b"alice", password=b"guess")),
             build(0x0001, os.urandom(12), auth_attrs(b"mallory", nonce), key_for(b"alice")),
             build(0x0001, os.urandom(12), auth_attrs(b"bob", nonce, realm=b"other.realm"), key_for(b"bob", realm=b"other.realm"))]
    for req in cases:
        got = c.ask(req)
        mtype, attrs = parse(got)
        assert got[8:20] == req[8:20] and mtype == 0x0111 and [t for t, _ in attrs] == [ERROR_CODE, REALM, NONCE]
        assert got == error(401, req[8:20], attrs[1:3]), "bad credentials get a fresh 401 challenge"
    tid = os.urandom(12)
    got = c.ask(build(0x0001, tid, auth_attrs(b"bob", b"made-up-nonce-%d" % RNG.randrange(999)), key_for(b"bob")))
    mtype, attrs = parse(got)
    assert [t for t, _ in attrs] == [ERROR_CODE, REALM, NONCE]
    assert got == error(438, tid, attrs[1:3]), "a nonce the server never issued is stale (438)"
    fresh = attrs[2][1]
    tid = os.urandom(12)
    ok = build(0x0001, tid, auth_attrs(b"bob", fresh), key_for(b"bob"))
    assert c.ask(ok) == build(0x0101, tid, [(XMA, xma("127.0.0.1", c.port))], key_for(b"bob"))
    tid = os.urandom(12)
    got = c.ask(build(0x0001, tid, [(USERNAME, b"bob"), (REALM, REALM_V)], key_for(b"bob"), fingerprint=True))
    assert got == error(400, tid, fp=True), "MESSAGE-INTEGRITY without USERNAME, REALM and NONCE is a bad request"


def test_unknown_comprehension_required_attributes():
    c = Udp()
    nonce = c.nonce()
    tid = os.urandom(12)
    extra = [(0x0003, b"\0\0\0\x06"), (SOFTWARE, b"x"), (0x7F01, b"abc"), (0x0003, b"\0\0\0\0"), (0xC057, b"opt")]
    req = build(0x0001, tid, auth_attrs(b"carol.x", nonce, extra=extra), key_for(b"carol.x"), fingerprint=True)
    want = error(420, tid, [(UNKNOWN, struct.pack(">HH", 0x0003, 0x7F01))], key_for(b"carol.x"), fp=True)
    assert c.ask(req) == want
    tid = os.urandom(12)
    got = c.ask(build(0x0001, tid, [(0x0003, b"\0\0\0\x06")]))
    assert parse(got)[1][0] == (ERROR_CODE, struct.pack(">HBB", 0, 4, 1) + b"Unauthorized"), \
        "authentication comes before the check for unknown attributes"
    tid = os.urandom(12)
    req = build(0x0001, tid, auth_attrs(b"alice", nonce), key_for(b"alice"), fingerprint=True,
                after_mi=[(0x0003, b"\0\0\0\x06"), (0x7002, b"zz")])  # after MESSAGE-INTEGRITY: ignored
    assert c.ask(req) == build(0x0101, tid, [(XMA, xma("127.0.0.1", c.port))], key_for(b"alice"), fingerprint=True)


def test_malformed_and_non_requests_are_ignored():
    c = Udp()
    nonce = c.nonce()
    good = build(0x0001, os.urandom(12), auth_attrs(b"alice", nonce), key_for(b"alice"))
    cases = [good[:4] + b"\x21\x12\xa4\x43" + good[8:],  # wrong magic cookie
             good[:2] + struct.pack(">H", len(good) - 16) + good[4:],  # length does not match
             good + b"\0\0",  # not a multiple of 4
             b"\xc0\x01" + good[2:],  # top bits set
             build(0x0011, os.urandom(12), []),  # an indication
             build(0x0101, os.urandom(12), [(XMA, xma("127.0.0.1", 9))]),  # a response
             build(0x0003, os.urandom(12), auth_attrs(b"alice", nonce), key_for(b"alice")),  # another method
             good[:20] + struct.pack(">HH", USERNAME, 200) + b"alice"]  # attribute overrunning the message
    for i, msg in enumerate(cases):
        if i == 2 or i == 7:
            msg = msg[:2] + struct.pack(">H", len(msg) - 20) + msg[4:]
        c.silent(msg)


def test_tcp_framing():
    c = Udp()
    nonce = c.nonce()
    s = socket.create_connection(("127.0.0.1", PORT), timeout=TIMEOUT)
    port = s.getsockname()[1]
    reqs, wants = [], []
    for i in range(12):
        tid = os.urandom(12)
        user = RNG.choice(sorted(ACCOUNTS))
        fp = RNG.random() < 0.5
        reqs.append(build(0x0001, tid, auth_attrs(user, nonce), key_for(user), fingerprint=fp))
        wants.append(build(0x0101, tid, [(XMA, xma("127.0.0.1", port))], key_for(user), fingerprint=fp))
    reqs.insert(5, build(0x0011, os.urandom(12), []))  # an indication in the stream: skipped
    data = b"".join(reqs)
    pos = 0
    while pos < len(data):
        n = RNG.choice([1, 3, 19, 20, 21, 500])
        s.sendall(data[pos:pos + n])
        pos += n
    want = b"".join(wants)
    got = b""
    while len(got) < len(want):
        d = s.recv(65536)
        assert d, "connection closed early"
        got += d
    assert got == want
    s.sendall(b"\x00\x01\x00\x00\x21\x12\xa4\x43" + os.urandom(12))  # wrong cookie: the stream cannot be trusted
    rest = b""
    while True:
        try:
            d = s.recv(65536)
        except ConnectionResetError:
            break
        if not d:
            break
        rest += d
    assert rest == b"", "a malformed message over TCP closes the connection"
    s.close()
