"""Device simulators written here talk to the collector; devices, readings, corruptions and splits are generated per test."""
import datetime
import os
import random
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time

import pytest

TIMEOUT = 120  # hang guard for socket reads only
HEADER = "device,time,channel,kind,value"


def crc16(data):
    crc = 0
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def frame(ftype, seq, payload, bad=False, rng=None):
    body = bytes([2, ftype]) + struct.pack("<HH", seq, len(payload)) + payload
    crc = crc16(body) ^ (rng.randrange(1, 65536) if bad else 0)
    return b"\xa5\x5a" + body + struct.pack(">H", crc)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Collector:
    def __init__(self):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="collector")
        self.out = os.path.join(self.dir, "spool", "readings.csv")  # the directory does not exist yet
        self.proc = subprocess.Popen(["bash", "/app/collector/run.sh"], cwd="/", start_new_session=True,
                                     env=dict(os.environ, COLLECTOR_PORT=str(self.port), COLLECTOR_OUT=self.out),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 240  # hang guard only
        while time.time() < deadline and self.proc.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=5).close()
                break
            except OSError:
                time.sleep(0.2)

    def lines(self):
        with open(self.out, encoding="ascii") as f:
            text = f.read()
        assert text.endswith("\n")
        rows = text.split("\n")[:-1]
        assert rows[0] == HEADER, "the CSV starts with the header line, once"
        return rows[1:]

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)


@pytest.fixture
def collector():
    c = Collector()
    yield c
    c.stop()


KIND_FMT = {1: "<h", 2: "<H", 3: "<H", 4: "<I"}


def show(kind, v):
    return {1: ("temp_c", "%.2f" % (v / 100)), 2: ("rh_pct", "%.1f" % (v / 10)),
            3: ("supply_v", "%.3f" % (v / 1000)), 4: ("pulses", str(v))}[kind]


def random_value(rng, kind):
    if kind == 1:
        return rng.choice([rng.randrange(-3000, 4500), rng.randrange(-100, 101), -1, 0, -32768, 32767])
    if kind == 2:
        return rng.randrange(0, 1001)
    if kind == 3:
        return rng.choice([rng.randrange(2800, 3500), rng.randrange(11000, 14600), 0, 1, 10])
    return rng.choice([rng.randrange(0, 5000000), rng.randrange(2 ** 31 - 100, 2 ** 31 + 100), 0, 2 ** 32 - 1])


class Device:
    def __init__(self, port, device, rng, seq=None):
        self.rng, self.device = rng, device
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.seq = rng.randrange(65536) if seq is None else seq
        self.expected, self.total = [], 0

    def send(self, data):
        pieces = [data]
        if len(data) > 6 and self.rng.random() < 0.5:
            cut = sorted(self.rng.sample(range(1, len(data)), self.rng.randrange(1, 4)))
            pieces = [data[a:b] for a, b in zip([0] + cut, cut + [len(data)])]
        for i, p in enumerate(pieces):
            if i:
                time.sleep(0.003)
            self.sock.sendall(p)

    def recv_exact(self, n):
        out = b""
        while len(out) < n:
            d = self.sock.recv(n - len(out))
            assert d, "the collector closed the connection instead of replying"
            out += d
        return out

    def expect(self, ftype, payload, what):
        want = frame(ftype, self.seq, payload)
        head = self.recv_exact(8)
        assert head[:2] == b"\xa5\x5a", f"{what}: reply does not start like the old collector's: {head.hex()}"
        (n,) = struct.unpack("<H", head[6:8])
        got = head + self.recv_exact(n + 2)
        assert got == want, f"{what}: device {self.device} seq {self.seq}: got {got.hex()}, the old collector sent {want.hex()}"

    def hello(self):
        fw = b"tlm-fw %d.%d.%d" % (self.rng.randrange(1, 4), self.rng.randrange(10), self.rng.randrange(30))
        self.send(frame(1, self.seq, struct.pack("<I", self.device) + bytes([len(fw)]) + fw))
        self.expect(0x81, b"\x00" + struct.pack("<I", self.device) + b"\x20", "HELLO")

    def data(self, readings=None, when=None, bad=False, dup=False):
        self.seq = (self.seq + 1) % 65536
        rng = self.rng
        when = when or rng.randrange(1767225600, 1830297600)  # 2026 .. 2027
        if readings is None:
            readings = []
            for _ in range(rng.randrange(1, 21)):
                kind = rng.randrange(1, 5)
                readings.append((rng.randrange(0, 256), kind, random_value(rng, kind)))
        payload = struct.pack("<IB", when, len(readings)) + b"".join(
            struct.pack("<BB", ch, kind) + struct.pack(KIND_FMT[kind], v) for ch, kind, v in readings)
        if bad:
            self.send(frame(2, self.seq, payload, bad=True, rng=rng))
            self.expect(0x8F, b"\x01", "DATA with a bad checksum")
        good = frame(2, self.seq, payload)
        self.send(good)
        self.expect(0x82, bytes([0, len(readings)]), "DATA")
        stamp = datetime.datetime.fromtimestamp(when, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        self.expected += ["%d,%s,%d,%s,%s" % ((self.device, stamp, ch) + show(kind, v)) for ch, kind, v in readings]
        self.total += len(readings)
        if dup:
            self.send(good)
            self.expect(0x82, b"\x02\x00", "repeated DATA")

    def bye(self):
        self.seq = (self.seq + 1) % 65536
        self.send(frame(3, self.seq, b""))
        self.expect(0x83, b"\x00" + struct.pack("<H", self.total), "BYE")
        self.sock.close()


def test_hello_data_bye(collector):
    d = Device(collector.port, 30211, random.Random(1))
    d.hello()
    d.data([(3, 1, 2137), (4, 2, 452), (5, 3, 3301), (6, 4, 123456)], when=1793700000)
    assert collector.lines() == d.expected, "each reading is in the CSV before its DATA frame is acknowledged"
    assert d.expected == ["30211,2026-11-03T10:00:00Z,3,temp_c,21.37", "30211,2026-11-03T10:00:00Z,4,rh_pct,45.2",
                          "30211,2026-11-03T10:00:00Z,5,supply_v,3.301", "30211,2026-11-03T10:00:00Z,6,pulses,123456"]
    d.data()
    d.bye()
    assert collector.lines() == d.expected


def test_value_ranges_and_formatting(collector):
    rng = random.Random(2)
    d = Device(collector.port, 4000000000, rng)
    d.hello()
    d.data([(1, 1, -1), (1, 1, -100), (1, 1, 0), (1, 1, -32768), (1, 1, 32767), (2, 1, -5), (2, 1, 99)])
    d.data([(7, 2, 0), (7, 2, 1000), (8, 3, 0), (8, 3, 14999), (9, 4, 0), (9, 4, 2 ** 31), (9, 4, 2 ** 32 - 1)])
    for _ in range(10):
        d.data()
    d.bye()
    assert collector.lines() == d.expected


def test_bad_checksums_and_repeated_frames(collector):
    rng = random.Random(3)
    d = Device(collector.port, 41007, rng)
    d.hello()
    for i in range(25):
        d.data(bad=rng.random() < 0.4, dup=rng.random() < 0.3)
    d.data(bad=True, dup=True)
    d.bye()
    assert collector.lines() == d.expected, "NAKed frames and repeats of an acknowledged frame are not recorded"


def test_sequence_numbers_wrap(collector):
    d = Device(collector.port, 2748113, random.Random(4), seq=65532)
    d.hello()
    for i in range(8):
        d.data(dup=i in (2, 3))
    d.bye()
    assert collector.lines() == d.expected


def test_concurrent_devices_and_session_totals(collector):
    errors, expected = [], {}
    lock = threading.Lock()

    def run(dev, seed):
        try:
            rng = random.Random(seed)
            for _ in range(2):  # two sessions in a row: BYE reports the session's own total
                d = Device(collector.port, dev, rng)
                d.hello()
                for _ in range(rng.randrange(3, 12)):
                    d.data(bad=rng.random() < 0.2, dup=rng.random() < 0.2)
                d.bye()
                with lock:
                    expected.setdefault(dev, []).extend(d.expected)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=run, args=(dev, 100 + i)) for i, dev in
               enumerate([30211, 30212, 41007, 90000001, 7, 65536, 123456789, 2748113])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    lines = collector.lines()
    assert len(lines) == sum(len(v) for v in expected.values())
    for dev, want in expected.items():
        assert [l for l in lines if l.split(",")[0] == str(dev)] == want


def test_abandoned_session_keeps_its_readings(collector):
    rng = random.Random(6)
    d = Device(collector.port, 30212, rng)
    d.hello()
    d.data()
    d.data(dup=True)
    d.sock.close()  # gone without BYE
    e = Device(collector.port, 30212, rng)
    e.hello()
    e.data()
    e.bye()
    assert collector.lines() == d.expected + e.expected
