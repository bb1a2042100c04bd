"""A RADIUS client written here checks the server byte for byte; secrets, users and packets are generated per run."""
import hashlib
import hmac
import json
import os
import random
import signal
import socket
import struct
import subprocess
import tempfile
import time

import pytest

TIMEOUT = 120  # hang guard for socket reads only
RNG = random.Random(1812)
DIR = tempfile.mkdtemp(prefix="radius")
SECRETS = {"127.0.0.1": b"s3cr3t-%d" % RNG.randrange(10 ** 6), "127.0.0.2": b"a much longer shared secret %d" % RNG.randrange(99)}
ATTR = {"Reply-Message": (18, "string"), "Class": (25, "string"), "Session-Timeout": (27, "integer"),
        "Idle-Timeout": (28, "integer"), "Framed-IP-Address": (8, "ipaddr"), "Filter-Id": (11, "string")}


def pw(n):
    return "".join(RNG.choice("abcdefghijklmnopqrstuvwxyz0123456789!@#") for _ in range(n))


USERS = {}
for i, n in enumerate([1, 8, 15, 16, 17, 31, 32, 33, 100, 128]):
    reply = RNG.sample([["Reply-Message", "Hello user %d" % i], ["Session-Timeout", RNG.randrange(2 ** 32)],
                        ["Framed-IP-Address", "10.%d.%d.%d" % tuple(RNG.randrange(256) for _ in range(3))],
                        ["Class", "grp-%d" % i], ["Idle-Timeout", 600], ["Filter-Id", "std.in"]], RNG.randrange(0, 4))
    USERS["user%d-%s" % (i, pw(3))] = {"password": pw(n), "reply": reply}


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()


def packet(code, ident, auth, attrs):
    body = b"".join(bytes([t, len(v) + 2]) + v for t, v in attrs)
    return struct.pack(">BBH", code, ident, 20 + len(body)) + auth + body


def hide(secret, auth, password):
    p = password + b"\0" * (-len(password) % 16 or (16 if not password else 0))
    out, prev = b"", auth
    for i in range(0, len(p), 16):
        key = hashlib.md5(secret + prev).digest()
        block = bytes(a ^ b for a, b in zip(p[i:i + 16], key))
        out += block
        prev = block
    return out


def with_ma(pkt, secret):
    """Append a Message-Authenticator to a request."""
    pkt = pkt[:2] + struct.pack(">H", len(pkt) + 18) + pkt[4:] + bytes([80, 18]) + b"\0" * 16
    return pkt[:-16] + hmac.new(secret, pkt, hashlib.md5).digest()


def encode_attr(name, value):
    t, kind = ATTR[name]
    v = value.encode() if kind == "string" else struct.pack(">I", value) if kind == "integer" else socket.inet_aton(value)
    return bytes([t, len(v) + 2]) + v


def expected(code, ident, req_auth, attrs, secret, ma):
    body = b"".join(attrs)
    if ma:
        length = 20 + len(body) + 18
        zero = struct.pack(">BBH", code, ident, length) + req_auth + body + bytes([80, 18]) + b"\0" * 16
        body += bytes([80, 18]) + hmac.new(secret, zero, hashlib.md5).digest()
    head = struct.pack(">BBH", code, ident, 20 + len(body))
    return head + hashlib.md5(head + req_auth + body + secret).digest() + body


@pytest.fixture(scope="module", autouse=True)
def server():
    with open(f"{DIR}/clients", "w") as f:
        f.write("# generated\n" + "".join(f"{ip}\t{s.decode()}\n" for ip, s in SECRETS.items()))
    with open(f"{DIR}/users.jsonl", "w") as f:
        for u, d in USERS.items():
            f.write(json.dumps({"user": u, "password": d["password"], "reply": d["reply"]}) + "\n")
    proc = subprocess.Popen(["bash", "/app/radius/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, RADIUS_PORT=str(PORT), RADIUS_CLIENTS=f"{DIR}/clients",
                                     RADIUS_USERS=f"{DIR}/users.jsonl"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    probe = Nas("127.0.0.1")
    probe.sock.settimeout(1)
    deadline, ready = time.time() + 240, False  # hang guard only
    while not ready and time.time() < deadline and proc.poll() is None:
        try:
            probe.sock.sendto(packet(1, 1, os.urandom(16), [(1, b"nobody"), (2, b"\0" * 16)]), ("127.0.0.1", PORT))
            probe.sock.recvfrom(4096)
            ready = True
        except OSError:
            time.sleep(0.2)
    if not ready:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the server did not answer")
    yield
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


class Nas:
    def __init__(self, ip):
        self.ip, self.secret = ip, SECRETS.get(ip, b"unknown")
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((ip, 0))
        self.sock.settimeout(TIMEOUT)
        self.ident = RNG.randrange(256)

    def next_id(self):
        self.ident = (self.ident + 1) % 256
        return self.ident

    def ask(self, pkt):
        self.sock.sendto(pkt, ("127.0.0.1", PORT))
        data, _ = self.sock.recvfrom(4096)
        return data

    def silent(self, pkt):
        self.sock.sendto(pkt, ("127.0.0.1", PORT))
        ident = self.next_id()
        probe = packet(1, ident, os.urandom(16), [(1, b"nobody"), (2, hide(self.secret, b"\0" * 16, b"x"))])
        got = self.ask(probe)
        assert got[1] == ident and got[0] == 3, "expected no reply to the previous packet"

    def pap(self, user, password, extra=(), ma=False, code=1):
        ident, auth = self.next_id(), os.urandom(16)
        attrs = [(4, socket.inet_aton(self.ip)), (1, user.encode()), (2, hide(self.secret, auth, password.encode()))] + list(extra)
        RNG.shuffle(attrs)
        pkt = packet(code, ident, auth, attrs)
        return (with_ma(pkt, self.secret) if ma else pkt), ident, auth


def reply_for(user):
    return [encode_attr(n, v) for n, v in USERS[user]["reply"]]


def test_pap_accept_and_reject():
    for ip in SECRETS:
        nas = Nas(ip)
        for user, d in USERS.items():
            for good in (True, False):
                password = d["password"] if good else d["password"][:-1] + ("x" if d["password"][-1] != "x" else "y")
                pkt, ident, auth = nas.pap(user, password)
                want = expected(2, ident, auth, reply_for(user), nas.secret, False) if good else \
                    expected(3, ident, auth, [], nas.secret, False)
                assert nas.ask(pkt) == want, f"{user} from {ip} ({'right' if good else 'wrong'} password)"
        pkt, ident, auth = nas.pap("no-such-user", "whatever")
        assert nas.ask(pkt) == expected(3, ident, auth, [], nas.secret, False)


def test_chap():
    nas = Nas("127.0.0.1")
    for user, d in USERS.items():
        for use_challenge in (False, True):
            for good in (True, False):
                ident, auth, chap_id = nas.next_id(), os.urandom(16), bytes([RNG.randrange(256)])
                challenge = os.urandom(RNG.choice([16, 8, 32])) if use_challenge else auth
                secret_pw = d["password"].encode() if good else b"nope"
                attrs = [(1, user.encode()), (3, chap_id + hashlib.md5(chap_id + secret_pw + challenge).digest())]
                if use_challenge:
                    attrs.append((60, challenge))
                want = expected(2, ident, auth, reply_for(user), nas.secret, False) if good else \
                    expected(3, ident, auth, [], nas.secret, False)
                assert nas.ask(packet(1, ident, auth, attrs)) == want, f"CHAP {user} challenge={use_challenge}"


def test_message_authenticator():
    nas = Nas("127.0.0.2")
    user = sorted(USERS)[3]
    for good in (True, False):
        pkt, ident, auth = nas.pap(user, USERS[user]["password"] if good else "bad", ma=True)
        want = expected(2 if good else 3, ident, auth, reply_for(user) if good else [], nas.secret, True)
        assert nas.ask(pkt) == want, "a request with Message-Authenticator gets one in the response (last attribute)"
    pkt, ident, auth = nas.pap(user, USERS[user]["password"], ma=True)
    broken = pkt[:-1] + bytes([pkt[-1] ^ 1])
    nas.silent(broken)


def test_accounting():
    for ip in SECRETS:
        nas = Nas(ip)
        for status in (1, 2, 3):
            ident = nas.next_id()
            attrs = [(40, struct.pack(">I", status)), (44, b"sess-%d" % RNG.randrange(10 ** 6)), (1, b"alice")]
            body = b"".join(bytes([t, len(v) + 2]) + v for t, v in attrs)
            head = struct.pack(">BBH", 4, ident, 20 + len(body))
            auth = hashlib.md5(head + b"\0" * 16 + body + nas.secret).digest()
            assert nas.ask(head + auth + body) == expected(5, ident, auth, [], nas.secret, False)
            nas.silent(head + os.urandom(16) + body)  # a wrong Request Authenticator


def test_unknown_clients_and_malformed_packets_are_dropped():
    stranger = Nas("127.0.0.3")
    user = sorted(USERS)[0]
    pkt, _, _ = stranger.pap(user, USERS[user]["password"])
    stranger.sock.sendto(pkt, ("127.0.0.1", PORT))
    nas = Nas("127.0.0.1")
    pkt, ident, auth = nas.pap(user, USERS[user]["password"])
    nas.silent(pkt[:2] + struct.pack(">H", len(pkt) + 10) + pkt[4:])  # length beyond the datagram
    nas.silent(pkt[:2] + struct.pack(">H", 19) + pkt[4:])  # length below the minimum
    bad_attr = packet(1, nas.next_id(), os.urandom(16), [(1, user.encode())]) + b"\x02\x01"
    bad_attr = bad_attr[:2] + struct.pack(">H", len(bad_attr)) + bad_attr[4:]
    nas.silent(bad_attr)  # an attribute with length 1
    nas.silent(packet(2, nas.next_id(), os.urandom(16), []))  # an Access-Accept sent to the server
    assert nas.ask(pkt) == expected(2, ident, auth, reply_for(user), nas.secret, False)
    stranger.sock.settimeout(0)
    try:
        stranger.sock.recv(4096)
        raise AssertionError("a client that is not in the clients file must get no answer")
    except BlockingIOError:
        pass
