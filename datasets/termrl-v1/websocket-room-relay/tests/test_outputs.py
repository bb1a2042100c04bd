"""The relay is started here; the WebSocket client is written here on raw sockets, the traffic generated here."""
import base64
import hashlib
import os
import random
import signal
import socket
import struct
import subprocess
import threading
import time

import pytest

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
RNG = random.Random(6455)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


@pytest.fixture(scope="module")
def port():
    port = free_port()
    proc = subprocess.Popen(["bash", "/app/wsrooms/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, WS_PORT=str(port)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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


def room():
    return "r-" + "".join(RNG.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(8))


class WS:
    def __init__(self, port, path, headers=None, expect=101):
        assert port, "the relay did not start listening"
        self.s = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.buf = b""
        key = base64.b64encode(os.urandom(16)).decode()
        h = {"Host": f"127.0.0.1:{port}", "Upgrade": "websocket", "Connection": "Upgrade",
             "Sec-WebSocket-Key": key, "Sec-WebSocket-Version": "13"}
        h.update(headers or {})
        req = f"GET {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items() if v is not None) + "\r\n"
        self.s.sendall(req.encode())
        while b"\r\n\r\n" not in self.buf:
            chunk = self.s.recv(4096)
            assert chunk, "connection closed during the handshake"
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        self.status = int(lines[0].split()[1])
        self.headers = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip() for l in lines[1:] if ":" in l}
        assert self.status == expect, (path, self.status, expect)
        if expect == 101:
            want = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
            assert self.headers.get("sec-websocket-accept") == want

    def exact(self, n):
        while len(self.buf) < n:
            chunk = self.s.recv(max(65536, n - len(self.buf)))
            assert chunk, "connection closed"
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def send(self, opcode, payload=b"", fin=True, mask=True, rsv=0, length=None):
        if isinstance(payload, str):
            payload = payload.encode()
        n = len(payload) if length is None else length
        b0 = (0x80 if fin else 0) | rsv | opcode
        if n < 126:
            head = struct.pack("!BB", b0, (0x80 if mask else 0) | n)
        elif n < 65536:
            head = struct.pack("!BBH", b0, (0x80 if mask else 0) | 126, n)
        else:
            head = struct.pack("!BBQ", b0, (0x80 if mask else 0) | 127, n)
        if mask:
            key = os.urandom(4)
            k = (key * (len(payload) // 4 + 1))[:len(payload)]
            payload = (int.from_bytes(payload, "big") ^ int.from_bytes(k, "big")).to_bytes(len(payload), "big") if payload else b""
            head += key
        self.s.sendall(head + payload)

    def frame(self):
        b0, b1 = self.exact(2)
        assert not b1 & 0x80, "server frames must not be masked"
        assert b0 & 0x80, "server frames must not be fragmented"
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack("!H", self.exact(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", self.exact(8))[0]
        return b0 & 0x0F, self.exact(n)

    def text(self):
        op, data = self.frame()
        assert op == 1, f"expected a text message, got opcode {op}"
        return data.decode()

    def closed_with(self, code):
        op, data = self.frame()
        assert op == 8 and len(data) >= 2, (op, data[:40])
        assert struct.unpack("!H", data[:2])[0] == code, struct.unpack("!H", data[:2])[0]
        self.s.settimeout(20)
        try:
            rest = self.s.recv(1)
        except ConnectionResetError:  # closed with unread input: a reset also ends the connection
            rest = b""
        assert rest == b"", "the connection must be closed after the Close frame"

    def close(self):
        self.s.close()


def count(ws):
    ws.send(1, "/count")
    return ws.text()


def test_handshake(port):
    r = room()
    WS(port, f"/rooms/{r}", {"Connection": "keep-alive, Upgrade", "Upgrade": "WebSocket"}).close()
    ws = WS(port, f"/rooms/{room()}", {"UPGRADE": "websocket", "Upgrade": None})
    assert count(ws) == "members: 1"
    ws.close()
    for path in ("/", "/rooms/", "/rooms/Upper", "/rooms/a_b", "/room/abc", "/rooms/" + "a" * 33, "/rooms/a/b"):
        WS(port, path, expect=404).close()
    WS(port, f"/rooms/{r}", {"Upgrade": None}, expect=400).close()
    WS(port, f"/rooms/{r}", {"Connection": "keep-alive"}, expect=400).close()
    WS(port, f"/rooms/{r}", {"Sec-WebSocket-Key": base64.b64encode(os.urandom(12)).decode()}, expect=400).close()
    WS(port, f"/rooms/{r}", {"Sec-WebSocket-Key": None}, expect=400).close()
    ws = WS(port, f"/rooms/{r}", {"Sec-WebSocket-Version": "8"}, expect=426)
    assert ws.headers.get("sec-websocket-version") == "13"
    ws.close()


def test_relay_to_other_members_only(port):
    r1, r2 = room(), room()
    a, b, c = WS(port, f"/rooms/{r1}"), WS(port, f"/rooms/{r1}"), WS(port, f"/rooms/{r1}")
    d, e = WS(port, f"/rooms/{r2}"), WS(port, f"/rooms/{r2}")
    m = [f"msg {i} {RNG.random()} ünï €" for i in range(4)]
    a.send(1, m[0])
    assert b.text() == m[0] and c.text() == m[0]
    d.send(1, m[1])  # other room
    assert e.text() == m[1]
    b.send(1, m[2])
    assert a.text() == m[2], "the sender must not get its own message, nor another room's"
    assert c.text() == m[2]
    c.send(1, "")
    assert a.text() == "" and b.text() == ""
    assert count(a) == "members: 3" and count(e) == "members: 2"
    e.send(1, m[3])
    assert d.text() == m[3], "/count must not be relayed"
    for w in (a, b, c, d, e):
        w.close()


@pytest.mark.parametrize("size", [125, 126, 65535, 65536, 300001])
def test_payload_lengths(port, size):
    r = room()
    a, b = WS(port, f"/rooms/{r}"), WS(port, f"/rooms/{r}")
    text = "".join(RNG.choice("abcdefghij€😀") for _ in range(size))[:size]
    text = text.encode()[:size].decode("utf-8", "ignore")
    text += "x" * (size - len(text.encode()))
    assert len(text.encode()) == size
    a.send(1, text)
    assert b.text() == text
    a.close(), b.close()


def test_fragments_with_interleaved_ping(port):
    r = room()
    a, b = WS(port, f"/rooms/{r}"), WS(port, f"/rooms/{r}")
    text = "Grüße 😀 " + "".join(RNG.choice("€aé😀") for _ in range(500))
    raw = text.encode()
    cuts = sorted(RNG.sample(range(1, len(raw)), 4))
    cuts[1] = raw.index("😀".encode()) + 2  # a cut inside a 4-byte character
    cuts = sorted(set(cuts))
    parts = [raw[i:j] for i, j in zip([0] + cuts, cuts + [len(raw)])]
    for i, p in enumerate(parts):
        a.send(1 if i == 0 else 0, p, fin=i == len(parts) - 1)
        if i == 1:
            a.send(9, b"are you there")
            assert a.frame() == (10, b"are you there")
    assert b.text() == text
    a.send(9, b"")
    assert a.frame() == (10, b"")
    a.send(10, b"unsolicited pong")
    a.send(1, "after")
    assert b.text() == "after"
    a.close(), b.close()


ERRORS = [
    ("unmasked", lambda w: w.send(1, b"", mask=False), 1002),
    ("rsv bit", lambda w: w.send(1, b"hi", rsv=0x40), 1002),
    ("unknown opcode", lambda w: w.send(3, b"x"), 1002),
    ("long ping", lambda w: w.send(9, b"p" * 126), 1002),
    ("fragmented ping", lambda w: w.send(9, b"p", fin=False), 1002),
    ("stray continuation", lambda w: w.send(0, b"x"), 1002),
    ("text inside fragmented", lambda w: (w.send(1, b"a", fin=False), w.send(1, b"b")), 1002),
    ("one-byte close", lambda w: w.send(8, b"\x03"), 1002),
    ("binary", lambda w: w.send(2, b"\x00\x01"), 1003),
    ("bad utf-8", lambda w: w.send(1, b"ok \xc3\x28"), 1007),
    ("surrogate", lambda w: w.send(1, b"\xed\xa0\x80"), 1007),
    ("bad utf-8 across fragments", lambda w: (w.send(1, b"abc\xe2\x82", fin=False), w.send(0, b"x")), 1007),
    ("huge header", lambda w: w.s.sendall(struct.pack("!BBQ", 0x81, 0xFF, 2 * 1048576)), 1009),
    ("too big in total", lambda w: (w.send(1, b"a" * 700000, fin=False),
                                    w.s.sendall(struct.pack("!BBQ", 0x00, 0xFF, 400000))), 1009),
]


def test_protocol_errors_close_with_code(port):
    r = room()
    watcher = WS(port, f"/rooms/{r}")
    for name, act, code in ERRORS:
        w = WS(port, f"/rooms/{r}")
        act(w)
        try:
            w.closed_with(code)
        except AssertionError as e:
            raise AssertionError(f"{name}: {e}") from None
        w.close()
    watcher.send(1, "/count")
    # every erroring client left (the close may be processed a little after the Close frame is sent)
    deadline = time.time() + 20
    while watcher.text() != "members: 1" and time.time() < deadline:
        time.sleep(0.1)
        watcher.send(1, "/count")
    watcher.send(1, "/count")
    assert watcher.text() == "members: 1"
    watcher.close()


def test_close_handshake_and_leaving(port):
    r = room()
    a, b, c = WS(port, f"/rooms/{r}"), WS(port, f"/rooms/{r}"), WS(port, f"/rooms/{r}")
    assert count(a) == "members: 3"
    b.send(8, struct.pack("!H", 1000) + b"bye")
    b.closed_with(1000)
    c.send(8, struct.pack("!H", 4001))
    c.closed_with(4001)
    d = WS(port, f"/rooms/{r}")
    d.send(8, b"")
    op, data = d.frame()
    assert op == 8 and data == b""
    e = WS(port, f"/rooms/{r}")
    e.s.shutdown(socket.SHUT_RDWR)  # gone without a Close frame
    e.close()
    deadline = time.time() + 20
    while count(a) != "members: 1":
        assert time.time() < deadline, "closed clients must leave the room"
        time.sleep(0.1)
    f = WS(port, f"/rooms/{r}")
    f.send(1, "still here?")
    assert a.text() == "still here?"
    a.close(), f.close()


def test_concurrent_senders_same_order(port):
    r = room()
    senders = [WS(port, f"/rooms/{r}") for _ in range(3)]
    listeners = [WS(port, f"/rooms/{r}") for _ in range(2)]
    n = 40
    msgs = {i: [f"s{i}-{k}-{RNG.randrange(10**6)}" for k in range(n)] for i in range(3)}
    got = {}

    def listen(key, ws, count):
        out = []
        try:
            for _ in range(count):
                out.append(ws.text())
        except Exception as e:  # reported below
            out.append(f"ERROR {e!r}")
        got[key] = out

    threads = [threading.Thread(target=listen, args=(f"L{j}", w, 3 * n)) for j, w in enumerate(listeners)]
    threads += [threading.Thread(target=listen, args=(f"S{i}", w, 2 * n)) for i, w in enumerate(senders)]
    for t in threads:
        t.start()

    def blast(i):
        for m in msgs[i]:
            senders[i].send(1, m)

    blasters = [threading.Thread(target=blast, args=(i,)) for i in range(3)]
    for t in blasters:
        t.start()
    for t in blasters + threads:
        t.join(60)
    order = got["L0"]
    assert order == got["L1"], "all members must see the room's messages in the same order"
    assert sorted(order) == sorted(sum(msgs.values(), []))
    for i in range(3):
        assert [m for m in order if m.startswith(f"s{i}-")] == msgs[i], "one client's messages keep their order"
        assert got[f"S{i}"] == [m for m in order if not m.startswith(f"s{i}-")]
    for w in senders + listeners:
        w.close()
