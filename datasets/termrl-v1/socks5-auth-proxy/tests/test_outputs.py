"""The SOCKS5 proxy, started here through /app/socks/run.sh with settings chosen here, driven with raw
sockets against destination servers run by the test (echo, answer-after-EOF, held)."""
import hashlib
import os
import random
import socket
import string
import struct
import subprocess
import threading
import time
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
GUARD = 30  # seconds; hang guards only


def word(n=8):
    return "".join(RNG.choice(string.ascii_lowercase) for _ in range(n))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise ConnectionError(f"closed after {len(buf)} of {n} bytes")
        buf += chunk
    return buf


def recv_all(s):
    buf = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            return buf
        buf += chunk


class Target:
    """A destination server on 127.0.0.1: 'echo', 'digest' (reads to EOF, answers sha256, closes) or
    'hold' (answers 'late' once released)."""

    def __init__(self, mode):
        self.mode, self.peers, self.release = mode, [], threading.Event()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                c, peer = self.sock.accept()
            except OSError:
                return
            self.peers.append(peer)
            threading.Thread(target=self._one, args=(c,), daemon=True).start()

    def _one(self, c):
        c.settimeout(120)
        try:
            if self.mode == "echo":
                while data := c.recv(65536):
                    c.sendall(data)
            elif self.mode == "digest":
                c.sendall(hashlib.sha256(recv_all(c)).hexdigest().encode())
            elif self.mode == "hold":
                c.recv(100)
                self.release.wait(120)
                c.sendall(b"late")
        except OSError:
            pass
        finally:
            c.close()


class Proxy:
    def __init__(self, tmp, users=None, deny=(), log=True):
        self.port = free_port()
        env = dict(os.environ, SOCKS_PORT=str(self.port))
        self.users = users
        if users is not None:
            f = tmp / f"users-{word()}.txt"
            f.write_text("".join(f"{u}:{p}\n" for u, p in users.items()))
            env["SOCKS_USERS"] = str(f)
        if deny:
            env["SOCKS_DENY_PORTS"] = ",".join(map(str, deny))
        self.log = tmp / f"log-{word()}" / "socks.log"
        self.log.parent.mkdir()
        if log:
            env["SOCKS_LOG"] = str(self.log)
        assert os.access("/app/socks/run.sh", os.X_OK), "/app/socks/run.sh missing or not executable"
        self.proc = subprocess.Popen(["/app/socks/run.sh"], cwd="/", env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        for _ in range(300):
            assert self.proc.poll() is None, "the proxy exited"
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        pytest.fail("the proxy did not listen on SOCKS_PORT")

    def stop(self):
        try:
            os.killpg(self.proc.pid, 9)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def open(self, methods=(0,), login=None):
        s = socket.create_connection(("127.0.0.1", self.port), timeout=GUARD)
        s.sendall(bytes([5, len(methods), *methods]))
        chosen = recv_exact(s, 2)
        if login and chosen == b"\x05\x02":
            u, p = (x.encode() for x in login)
            s.sendall(bytes([1, len(u)]) + u + bytes([len(p)]) + p)
            status = recv_exact(s, 2)
            return s, chosen, status
        return s, chosen, None

    def connect(self, host, port, login=None, cmd=1, atyp=None):
        methods = (0, 2) if login else (0,)
        s, chosen, status = self.open(methods, login)
        assert chosen == (b"\x05\x02" if login else b"\x05\x00"), chosen
        if login:
            assert status == b"\x01\x00", status
        if atyp == 4:
            addr = b"\x04" + bytes(15) + b"\x01"
        elif isinstance(host, str) and all(p.isdigit() for p in host.split(".")) and host.count(".") == 3:
            addr = b"\x01" + socket.inet_aton(host)
        else:
            addr = b"\x03" + bytes([len(host)]) + host.encode()
        s.sendall(bytes([5, cmd, 0]) + addr + struct.pack("!H", port))
        rep = recv_exact(s, 10)
        assert rep[0] == 5 and rep[2] == 0 and rep[3] == 1, rep
        return s, rep[1], socket.inet_ntoa(rep[4:8]), struct.unpack("!H", rep[8:10])[0]

    def log_lines(self, n):
        for _ in range(GUARD * 10):
            lines = self.log.read_text().splitlines() if self.log.exists() else []
            if len(lines) >= n:
                return lines
            time.sleep(0.1)
        pytest.fail(f"expected {n} log lines, got {self.log.read_text() if self.log.exists() else 'no log'}")


@pytest.fixture()
def proxies(tmp_path):
    made = []

    def make(**kw):
        p = Proxy(tmp_path, **kw)
        made.append(p)
        return p

    yield make
    for p in made:
        p.stop()


@pytest.fixture(scope="module")
def hostname():
    name = f"svc-{word()}.test"
    try:
        with open("/etc/hosts", "a") as f:
            f.write(f"127.0.0.1 {name}\n")
        return name
    except OSError:
        return "127.0.0.1"


def test_connect_relays_and_reports_the_bound_address(proxies):
    proxy, echo = proxies(), Target("echo")
    s, rep, baddr, bport = proxy.connect("127.0.0.1", echo.port)
    assert rep == 0
    payload = os.urandom(RNG.randint(300_000, 600_000))
    threading.Thread(target=s.sendall, args=(payload,), daemon=True).start()
    assert recv_exact(s, len(payload)) == payload
    s.close()
    assert (baddr, bport) == echo.peers[-1], "BND.ADDR/BND.PORT must be the proxy's end of the destination link"


def test_login_with_users_file(proxies, hostname):
    users = {word(): word(12) + ":" + word(3) for _ in range(3)}
    proxy, echo = proxies(users=users), Target("echo")
    user = RNG.choice(list(users))
    s, rep, _, _ = proxy.connect(hostname, echo.port, login=(user, users[user]))
    assert rep == 0
    s.sendall(b"ping")
    assert recv_exact(s, 4) == b"ping"
    s.close()
    s, chosen, status = proxy.open((0, 2), (user, users[user][:-1]))
    assert chosen == b"\x05\x02" and status == b"\x01\x01"
    assert recv_all(s) == b"", "the connection must be closed after a failed login"
    s, chosen, _ = proxy.open((0,))
    assert chosen == b"\x05\xff" and recv_all(s) == b""
    plain = proxies()
    s, chosen, _ = plain.open((2, 1))
    assert chosen == b"\x05\xff"


def test_error_replies(proxies, hostname):
    guarded = Target("echo")
    proxy = proxies(deny=(guarded.port, free_port()))
    closed_port = free_port()
    cases = [(("127.0.0.1", closed_port), {}, 5), ((f"no-{word()}.invalid", 80), {}, 4),
             ((hostname, guarded.port), {}, 2), (("127.0.0.1", guarded.port), {"cmd": 2}, 7),
             (("127.0.0.1", guarded.port), {"cmd": 3}, 7), (("::1", guarded.port), {"atyp": 4}, 8)]
    for (host, port), kw, want in cases:
        s, rep, baddr, bport = proxy.connect(host, port, **kw)
        assert rep == want, (host, port, kw, rep)
        assert (baddr, bport) == ("0.0.0.0", 0)
        assert recv_all(s) == b"", "the connection must be closed after a failure reply"
    assert guarded.peers == [], "a denied port must not be connected to"


def test_half_close_is_passed_on(proxies):
    proxy, target = proxies(), Target("digest")
    s, rep, _, _ = proxy.connect("127.0.0.1", target.port)
    assert rep == 0
    payload = os.urandom(RNG.randint(50_000, 200_000))
    s.sendall(payload)
    s.shutdown(socket.SHUT_WR)
    assert recv_all(s).decode() == hashlib.sha256(payload).hexdigest()


def test_slow_destination_does_not_block_others(proxies):
    proxy, slow, echo = proxies(), Target("hold"), Target("echo")
    a, rep, _, _ = proxy.connect("127.0.0.1", slow.port)
    assert rep == 0
    a.sendall(b"question")
    for _ in range(3):  # served while the first session is still waiting for its answer
        b, rep, _, _ = proxy.connect("127.0.0.1", echo.port)
        assert rep == 0
        b.sendall(b"quick")
        assert recv_exact(b, 5) == b"quick"
        b.close()
    assert not slow.release.is_set()
    slow.release.set()
    assert recv_all(a) == b"late"


def test_session_log(proxies, hostname):
    users = {word(): word(10)}
    user = next(iter(users))
    proxy, echo, digest = proxies(users=users, deny=(9,)), Target("echo"), Target("digest")
    s, rep, _, _ = proxy.connect(hostname, echo.port, login=(user, users[user]))
    up = os.urandom(RNG.randint(1000, 5000))
    s.sendall(up)
    recv_exact(s, len(up))
    s.close()
    s, rep, _, _ = proxy.connect("127.0.0.1", digest.port, login=(user, users[user]))
    up2 = os.urandom(RNG.randint(1000, 5000))
    s.sendall(up2)
    s.shutdown(socket.SHUT_WR)
    assert len(recv_all(s)) == 64
    s.close()
    s, rep, _, _ = proxy.connect("127.0.0.1", 9, login=(user, users[user]))
    assert rep == 2
    lines = proxy.log_lines(3)
    assert sorted(lines) == sorted([f"{user} {hostname}:{echo.port} 00 {len(up)} {len(up)}",
                                    f"{user} 127.0.0.1:{digest.port} 00 {len(up2)} 64",
                                    f"{user} 127.0.0.1:9 02 0 0"]), lines
    plain, echo2 = proxies(), Target("echo")
    s, _, _, _ = plain.connect("127.0.0.1", echo2.port)
    s.sendall(b"abc")
    recv_exact(s, 3)
    s.close()
    assert plain.log_lines(1) == [f"- 127.0.0.1:{echo2.port} 00 3 3"]
