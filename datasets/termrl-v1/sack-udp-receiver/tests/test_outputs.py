"""A sender written here drives the receiver: file contents, loss, duplication and reordering patterns are generated per test."""
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
M = 1 << 32
WINDOW = 64
DIR = tempfile.mkdtemp(prefix="rx")
OUT = os.path.join(DIR, "incoming")  # does not exist yet


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()


def pkt(t, sid, seq, payload=b""):
    return b"RX\x01" + bytes([t]) + struct.pack(">II", sid, seq) + payload


@pytest.fixture(scope="module", autouse=True)
def receiver():
    proc = subprocess.Popen(["bash", "/app/rx/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, RX_PORT=str(PORT), RX_DIR=OUT),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    probe.settimeout(1)
    deadline, ready = time.time() + 240, False  # hang guard only
    while not ready and time.time() < deadline and proc.poll() is None:
        try:
            probe.sendto(pkt(2, 0xFFFFFFF0, 0, b"x"), ("127.0.0.1", PORT))
            probe.recvfrom(4096)
            ready = True
        except OSError:
            time.sleep(0.2)
    probe.close()
    if not ready:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the receiver did not answer")
    yield
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


class Session:
    """The sender side plus a model of what the receiver must answer."""

    def __init__(self, sid, name, isn, rng):
        self.sid, self.name, self.isn, self.rng = sid, name, isn, rng
        self.next, self.buf, self.fin, self.received = isn, {}, None, bytearray()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.settimeout(TIMEOUT)

    def ask(self, data):
        self.sock.sendto(data, ("127.0.0.1", PORT))
        got, _ = self.sock.recvfrom(4096)
        return got

    def silent(self, data):
        self.sock.sendto(data, ("127.0.0.1", PORT))
        probe = pkt(2, 0xFFFFFFF1, 77, b"p")
        assert self.ask(probe) == pkt(0x84, 0xFFFFFFF1, 77, b"\x01"), "expected no answer to the previous datagram"

    def open(self):
        got = self.ask(pkt(1, self.sid, 0, bytes([len(self.name)]) + self.name.encode() + struct.pack(">I", self.isn)))
        assert got == pkt(0x81, self.sid, self.isn), f"OPEN {self.name}: {got!r}"

    def model_ack(self):
        bits = sum(1 << i for i in range(32) if (self.next + 1 + i) % M in self.buf)
        return pkt(0x82, self.sid, self.next, struct.pack(">I", bits))

    def data(self, seq, payload):
        off = (seq - self.next) % M
        limit = WINDOW if self.fin is None else min(WINDOW, (self.fin - self.next) % M)
        if off < limit and seq not in self.buf:
            self.buf[seq] = payload
            while self.next in self.buf:
                self.received += self.buf.pop(self.next)
                self.next = (self.next + 1) % M
        got = self.ask(pkt(2, self.sid, seq, payload))
        assert got == self.model_ack(), f"ACK after DATA {seq - self.isn}: got {got.hex()}, expected {self.model_ack().hex()}"

    def finish(self, seq):
        off = (seq - self.next) % M
        got = self.ask(pkt(3, self.sid, seq))
        if off >= WINDOW + 1 or any((k - self.next) % M >= off for k in self.buf):
            assert got == self.model_ack(), "a FIN that cannot be the end is answered with an ACK"
            return False
        self.fin = seq
        if off == 0:
            assert got == pkt(0x83, self.sid, seq), f"FIN-ACK expected, got {got.hex()}"
            return True
        assert got == self.model_ack()
        return False


def chunks(rng, n):
    return [os.urandom(rng.randrange(1, 1201)) for _ in range(n)]


def transfer(rng, sid, name, isn, n, loss=0.2, dup=0.1, shuffle=8):
    s = Session(sid, name, isn, rng)
    s.open()
    parts = chunks(rng, n)
    pending = list(range(n))
    while pending:
        batch = pending[:WINDOW - 4]
        order = sorted(batch, key=lambda i: i + rng.uniform(-shuffle, shuffle))
        sent_ok = []
        for i in order:
            if rng.random() < loss:
                continue  # lost on the way: the sender will send it again
            s.data((isn + i) % M, parts[i])
            sent_ok.append(i)
            if rng.random() < dup:
                s.data((isn + i) % M, parts[i])
        pending = [i for i in pending if (isn + i) % M not in s.buf and ((isn + i - s.next) % M) < (M >> 1)]
        if rng.random() < 0.3:
            s.finish((isn + n) % M)  # early FIN: not complete yet
    assert s.finish((isn + n) % M)
    with open(os.path.join(OUT, name), "rb") as f:
        assert f.read() == b"".join(parts) == bytes(s.received)
    return s


def test_clean_transfer():
    rng = random.Random(1)
    transfer(rng, 1, "clean.bin", 1000, 40, loss=0, dup=0, shuffle=0)


def test_loss_reorder_duplicates():
    rng = random.Random(2)
    for k in range(4):
        transfer(rng, 10 + k, "file-%d.dat" % k, rng.randrange(M), rng.randrange(50, 200))


def test_sequence_wraparound():
    rng = random.Random(3)
    transfer(rng, 20, "wrap.bin", M - 37, 150, loss=0.15)


def test_window_and_fin_rules():
    rng = random.Random(4)
    s = Session(30, "window.bin", M - 5, rng)
    s.open()
    parts = chunks(rng, 100)
    s.data((s.isn + 64) % M, parts[64])  # just outside the window: discarded
    s.data((s.isn + 63) % M, parts[63])  # the last slot of the window: kept
    s.data((s.isn + 200) % M, parts[5])
    s.data((s.isn - 3) % M, b"old")  # behind: a duplicate of nothing, ignored
    for i in range(0, 10):
        s.data((s.isn + i) % M, parts[i])
    assert not s.finish((s.isn + 5) % M), "data beyond the FIN position is buffered: FIN refused"
    assert not s.finish((s.isn + 80) % M), "FIN too far ahead is refused"
    for i in range(10, 63):
        s.data((s.isn + i) % M, parts[i])
    assert not s.finish((s.isn + 66) % M)  # remembered: 64 and 65 are still missing
    s.data((s.isn + 66) % M, parts[66])  # beyond the FIN: discarded
    s.data((s.isn + 65) % M, parts[65])
    s.data((s.isn + 64) % M, parts[64])
    assert s.finish((s.isn + 66) % M)
    with open(os.path.join(OUT, "window.bin"), "rb") as f:
        assert f.read() == b"".join(parts[:66])
    assert s.ask(pkt(3, 30, (s.isn + 66) % M)) == pkt(0x83, 30, (s.isn + 66) % M), "a repeated FIN is acknowledged again"
    assert s.ask(pkt(2, 30, s.isn, b"late")) == pkt(0x84, 30, s.isn, b"\x01"), "the session is closed"


def test_open_errors_reset_and_malformed():
    rng = random.Random(5)
    a = Session(40, "busy.bin", 7, rng)
    a.open()
    a.open()  # a repeated OPEN is answered again
    b = Session(41, "busy.bin", 9, rng)
    assert b.ask(pkt(1, 41, 0, b"\x08busy.bin" + struct.pack(">I", 9))) == pkt(0x84, 41, 0, b"\x03")
    for bad in (b"../x", "", "a" * 65, "sp ace", ".."):
        raw = bad.encode() if isinstance(bad, str) else bad
        assert b.ask(pkt(1, 41, 0, bytes([len(raw)]) + raw + struct.pack(">I", 1))) == pkt(0x84, 41, 0, b"\x02"), bad
    assert b.ask(pkt(2, 99, 5, b"x")) == pkt(0x84, 99, 5, b"\x01")
    a.data(7, b"first")
    a.silent(pkt(4, 40, 0))  # RESET: the session and its data are gone, no answer
    assert a.ask(pkt(2, 40, 8, b"x")) == pkt(0x84, 40, 8, b"\x01")
    assert not os.path.exists(os.path.join(OUT, "busy.bin"))
    c = Session(42, "busy.bin", 100, rng)  # the name is free again
    c.open()
    a.silent(b"RX\x02\x02" + bytes(8) + b"x")  # wrong version
    a.silent(b"RX\x01\x02\x00")  # too short
    a.silent(pkt(2, 42, 100, b""))  # DATA without data
    a.silent(pkt(2, 42, 100, b"z" * 1201))  # too much data
    a.silent(pkt(9, 42, 100, b"z"))  # unknown type
    c.data(100, b"only")
    assert c.finish(101)
    with open(os.path.join(OUT, "busy.bin"), "rb") as f:
        assert f.read() == b"only"


def test_interleaved_sessions():
    rng = random.Random(6)
    sessions = [Session(50 + i, "multi-%d.bin" % i, rng.randrange(M), rng) for i in range(5)]
    parts = {s.sid: chunks(rng, rng.randrange(20, 60)) for s in sessions}
    for s in sessions:
        s.open()
    work = [(s, i) for s in sessions for i in range(len(parts[s.sid]))]
    rng.shuffle(work)
    for s, i in work:
        if (s.isn + i - s.next) % M < WINDOW:
            s.data((s.isn + i) % M, parts[s.sid][i])
    for s in sessions:
        for i in range(len(parts[s.sid])):
            if (s.isn + i - s.next) % M < (M >> 1):
                s.data((s.isn + i) % M, parts[s.sid][i])
        assert s.finish((s.isn + len(parts[s.sid])) % M)
        with open(os.path.join(OUT, s.name), "rb") as f:
            assert f.read() == b"".join(parts[s.sid])
