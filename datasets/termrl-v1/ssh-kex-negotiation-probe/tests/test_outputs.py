"""An SSH client side written here (version exchange, binary packets, KEXINIT) talks to the probe; algorithm lists are generated per run."""
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
RNG = random.Random(22)
DIR = tempfile.mkdtemp(prefix="kexprobe")
POOL = {
    "kex": ["curve25519-sha256", "curve25519-sha256@libssh.org", "ecdh-sha2-nistp256", "ecdh-sha2-nistp384",
            "diffie-hellman-group14-sha256", "diffie-hellman-group16-sha512", "sntrup761x25519-sha512@openssh.com"],
    "hostkey": ["ssh-ed25519", "rsa-sha2-512", "rsa-sha2-256", "ecdsa-sha2-nistp256", "ssh-rsa"],
    "ciphers": ["chacha20-poly1305@openssh.com", "aes256-gcm@openssh.com", "aes128-gcm@openssh.com", "aes256-ctr",
                "aes192-ctr", "aes128-ctr"],
    "macs": ["hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com", "umac-128-etm@openssh.com",
             "hmac-sha2-256", "hmac-sha2-512", "hmac-sha1"],
    "compression": ["none", "zlib@openssh.com", "zlib"],
}
AEAD = {"chacha20-poly1305@openssh.com", "aes128-gcm@openssh.com", "aes256-gcm@openssh.com"}
SERVER = {k: RNG.sample(v, RNG.randrange(2, len(v))) for k, v in POOL.items()}
SERVER["ciphers"] = [c for c in SERVER["ciphers"] if c not in AEAD][:1] + [c for c in SERVER["ciphers"] if c in AEAD] + \
    [c for c in SERVER["ciphers"] if c not in AEAD][1:] or SERVER["ciphers"]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()


@pytest.fixture(scope="module", autouse=True)
def probe():
    with open(f"{DIR}/kexprobe.conf", "w") as f:
        f.write("# generated\n" + "".join(f"{k} = {', '.join(v)}\n" for k, v in SERVER.items()))
    proc = subprocess.Popen(["bash", "/app/kexprobe/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, KEXPROBE_PORT=str(PORT), KEXPROBE_CONF=f"{DIR}/kexprobe.conf"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 240  # hang guard only
    while time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=5).close()
            break
        except OSError:
            time.sleep(0.2)
    yield
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def string(b):
    return struct.pack(">I", len(b)) + b


def packet(payload, pad=None):
    pad = pad if pad is not None else 4 + (-(5 + len(payload) + 4)) % 8 + 8 * RNG.randrange(0, 3)
    return struct.pack(">IB", 1 + len(payload) + pad, pad) + payload + os.urandom(pad)


def kexinit(lists, follows=0):
    return bytes([20]) + os.urandom(16) + b"".join(string(",".join(l).encode()) for l in lists) + bytes([follows]) + b"\0" * 4


class Client:
    def __init__(self):
        self.sock = socket.create_connection(("127.0.0.1", PORT), timeout=TIMEOUT)
        self.buf = b""

    def fill(self):
        d = self.sock.recv(65536)
        assert d, "connection closed early"
        self.buf += d

    def line(self):
        while b"\r\n" not in self.buf:
            self.fill()
        i = self.buf.index(b"\r\n")
        line, self.buf = self.buf[:i], self.buf[i + 2:]
        return line

    def packet(self):
        while len(self.buf) < 5:
            self.fill()
        length, pad = struct.unpack(">IB", self.buf[:5])
        assert (length + 4) % 8 == 0 and pad >= 4 and length <= 35000, f"bad server packet framing {length} {pad}"
        while len(self.buf) < 4 + length:
            self.fill()
        payload, self.buf = self.buf[5:4 + length - pad], self.buf[4 + length:]
        return payload

    def send_pieces(self, data):
        pos = 0
        while pos < len(data):
            n = RNG.choice([1, 3, 5, 64, len(data)])
            self.sock.sendall(data[pos:pos + n])
            pos += n

    def closed(self):
        try:
            while True:
                d = self.sock.recv(65536)
                if not d:
                    return self.buf == b""
                self.buf += d
        except ConnectionResetError:
            return True


def server_kexinit(c):
    assert c.line() == b"SSH-2.0-KexProbe_1.0", "the probe's identification line"
    p = c.packet()
    assert p[0] == 20
    pos, lists = 17, []
    for _ in range(10):
        (n,) = struct.unpack(">I", p[pos:pos + 4])
        lists.append(p[pos + 4:pos + 4 + n].decode().split(",") if n else [])
        pos += 4 + n
    assert p[pos:] == b"\0" * 5, "first_kex_packet_follows and reserved are zero"
    return lists


def disconnect(c):
    p = c.packet()
    assert p[0] == 1, f"expected SSH_MSG_DISCONNECT, got {p[:1]!r}"
    (reason,) = struct.unpack(">I", p[1:5])
    (n,) = struct.unpack(">I", p[5:9])
    text = p[9:9 + n].decode()
    (m,) = struct.unpack(">I", p[9 + n:13 + n])
    assert m == 0 and len(p) == 13 + n
    assert c.closed(), "the connection is closed after DISCONNECT"
    return reason, text


def expected(lists):
    def pick(cl, sv):
        return next((a for a in cl if a in sv), None)

    out = []
    for label, cl, key in (("kex", lists[0], "kex"), ("host key", lists[1], "hostkey"),
                           ("cipher c2s", lists[2], "ciphers"), ("cipher s2c", lists[3], "ciphers")):
        a = pick(cl, SERVER[key])
        if a is None:
            return 3, "no matching " + label
        out.append(a)
    for label, cl, cipher in (("mac c2s", lists[4], out[2]), ("mac s2c", lists[5], out[3])):
        if cipher in AEAD:
            out.append("<implicit>")
            continue
        a = pick(cl, SERVER["macs"])
        if a is None:
            return 3, "no matching " + label
        out.append(a)
    for label, cl in (("compression c2s", lists[6]), ("compression s2c", lists[7])):
        a = pick(cl, SERVER["compression"])
        if a is None:
            return 3, "no matching " + label
        out.append(a)
    keys = ["kex", "hostkey", "cipher_c2s", "cipher_s2c", "mac_c2s", "mac_s2c", "comp_c2s", "comp_s2c"]
    return 11, ";".join("%s=%s" % kv for kv in zip(keys, out))


def random_lists(rng, fail_rate=0.1):
    def one(key):
        if rng.random() < fail_rate:
            return [a for a in POOL[key] if a not in SERVER[key]][:2] or ["nothing-%d" % rng.randrange(9)]
        return rng.sample(POOL[key], rng.randrange(1, len(POOL[key]) + 1))

    return [one("kex"), one("hostkey"), one("ciphers"), one("ciphers"), one("macs"), one("macs"),
            one("compression"), one("compression"), [], rng.choice([[], ["en-US"]])]


def test_server_announces_its_lists():
    c = Client()
    assert c.line() == b"SSH-2.0-KexProbe_1.0", "the probe identifies itself first"
    c.buf = b"SSH-2.0-KexProbe_1.0\r\n" + c.buf
    c.sock.sendall(b"SSH-2.0-tester\r\n")
    lists = server_kexinit(c)
    assert lists == [SERVER["kex"], SERVER["hostkey"], SERVER["ciphers"], SERVER["ciphers"], SERVER["macs"],
                     SERVER["macs"], SERVER["compression"], SERVER["compression"], [], []]
    c.sock.sendall(packet(kexinit(lists)))
    assert disconnect(c) == expected(lists)


def test_negotiation_results():
    rng = random.Random(5)
    seen = set()
    for i in range(80):
        lists = random_lists(rng)
        c = Client()
        ident = rng.choice([b"SSH-2.0-OpenSSH_9.6\r\n", b"SSH-2.0-PuTTY_Release_0.80\n", b"SSH-1.99-old_client\r\n"])
        extra = b"".join(packet(bytes([rng.choice([2, 4])]) + os.urandom(rng.randrange(0, 30))) for _ in range(rng.randrange(0, 3)))
        c.send_pieces(ident + extra + packet(kexinit(lists, follows=rng.randrange(2))))
        server_kexinit(c)
        want = expected(lists)
        seen.add(want[0])
        assert disconnect(c) == want, f"client lists {lists}"
    assert seen == {3, 11}


def test_aead_ciphers_make_the_mac_implicit():
    aead = [c for c in SERVER["ciphers"] if c in AEAD]
    plain = [c for c in SERVER["ciphers"] if c not in AEAD]
    if not aead or not plain:
        pytest.skip("generated server list lacks one kind")
    lists = [SERVER["kex"][-1:], SERVER["hostkey"], [aead[0]], plain[:1], ["no-such-mac"], [SERVER["macs"][-1], "x"],
             ["zlib", "none"] if "none" in SERVER["compression"] else SERVER["compression"][::-1], SERVER["compression"], [], []]
    c = Client()
    c.sock.sendall(b"SSH-2.0-aead\r\n" + packet(kexinit(lists)))
    server_kexinit(c)
    assert disconnect(c) == expected(lists)
    lists[2], lists[3] = plain[:1], [aead[0]]
    c = Client()
    c.sock.sendall(b"SSH-2.0-aead\r\n" + packet(kexinit(lists)))
    server_kexinit(c)
    assert disconnect(c) == (3, "no matching mac c2s")


def test_bad_identification_and_packets():
    c = Client()
    c.sock.sendall(b"HELLO there\r\n")
    assert c.line() == b"SSH-2.0-KexProbe_1.0"
    assert c.line() == b"Protocol mismatch."
    assert c.closed()
    c = Client()
    c.sock.sendall(b"SSH-2.0-" + b"x" * 300 + b"\r\n")
    assert c.line() == b"SSH-2.0-KexProbe_1.0"
    assert c.line() == b"Protocol mismatch."
    lists = random_lists(random.Random(9), 0)
    bad = [packet(kexinit(lists))[:-1] + b"",  # length not a multiple of the block size once trimmed
           packet(kexinit(lists), pad=3),
           struct.pack(">IB", 40000, 4) + b"\0" * 64,
           packet(b"\x05" + string(b"ssh-userauth"))]  # a service request before KEXINIT
    for i, raw in enumerate(bad):
        if i == 0:
            p = packet(kexinit(lists))
            length = struct.unpack(">I", p[:4])[0]
            raw = struct.pack(">I", length - 1) + p[4:-1]
        c = Client()
        c.sock.sendall(b"SSH-2.0-t\r\n" + raw)
        server_kexinit(c)
        reason, text = disconnect(c)
        assert reason == 2, f"case {i}: {reason} {text}"


def test_many_clients_at_once():
    rng = random.Random(77)
    clients, wants = [], []
    for i in range(12):
        c = Client()
        c.sock.sendall(b"SSH-2.0-c%d\r\n" % i)
        clients.append(c)
    for c in reversed(clients):
        server_kexinit(c)
    for c in clients:
        lists = random_lists(rng, 0.05)
        c.send_pieces(packet(kexinit(lists)))
        wants.append(expected(lists))
    for c, want in zip(clients, wants):
        assert disconnect(c) == want
