"""An h2c client written here drives the server: header blocks, bodies and window schedules are generated per test."""
import hashlib
import os
import random
import signal
import socket
import struct
import subprocess
import time

import pytest

TIMEOUT = 120  # hang guard for every socket read; never a speed bar
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = range(10)
END_STREAM, ACK, END_HEADERS, PADDED, PRIO = 0x1, 0x1, 0x4, 0x8, 0x20
STATIC = [(n.encode(), v.encode()) for n, v in [(':authority', ''), (':method', 'GET'), (':method', 'POST'), (':path', '/'), (':path', '/index.html'), (':scheme', 'http'), (':scheme', 'https'), (':status', '200'), (':status', '204'), (':status', '206'), (':status', '304'), (':status', '400'), (':status', '404'), (':status', '500'), ('accept-charset', ''), ('accept-encoding', 'gzip, deflate'), ('accept-language', ''), ('accept-ranges', ''), ('accept', ''), ('access-control-allow-origin', ''), ('age', ''), ('allow', ''), ('authorization', ''), ('cache-control', ''), ('content-disposition', ''), ('content-encoding', ''), ('content-language', ''), ('content-length', ''), ('content-location', ''), ('content-range', ''), ('content-type', ''), ('cookie', ''), ('date', ''), ('etag', ''), ('expect', ''), ('expires', ''), ('from', ''), ('host', ''), ('if-match', ''), ('if-modified-since', ''), ('if-none-match', ''), ('if-range', ''), ('if-unmodified-since', ''), ('last-modified', ''), ('link', ''), ('location', ''), ('max-forwards', ''), ('proxy-authenticate', ''), ('proxy-authorization', ''), ('range', ''), ('referer', ''), ('refresh', ''), ('retry-after', ''), ('server', ''), ('set-cookie', ''), ('strict-transport-security', ''), ('transfer-encoding', ''), ('user-agent', ''), ('vary', ''), ('via', ''), ('www-authenticate', '')]]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()


@pytest.fixture(scope="module", autouse=True)
def server():
    proc = subprocess.Popen(["bash", "/app/h2/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, H2_PORT=str(PORT)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 240  # hang guard only
    while time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=5).close()
            break
        except OSError:
            time.sleep(0.2)
    yield proc
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def enc_int(value, bits, first=0):
    mask = (1 << bits) - 1
    if value < mask:
        return bytes([first | value])
    out = bytearray([first | mask])
    value -= mask
    while value >= 128:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def enc_str(s):
    return enc_int(len(s), 7) + s


class Table:
    def __init__(self, size=4096):
        self.entries, self.size, self.max = [], 0, size

    def evict(self):
        while self.size > self.max:
            n, v = self.entries.pop()
            self.size -= len(n) + len(v) + 32

    def add(self, n, v):
        self.entries.insert(0, (n, v))
        self.size += len(n) + len(v) + 32
        self.evict()

    def get(self, i):
        assert i >= 1, "index 0 in a response header block"
        if i <= len(STATIC):
            return STATIC[i - 1]
        assert i - 62 < len(self.entries), "response header block refers to a missing dynamic entry"
        return self.entries[i - 62]

    def find(self, n, v):
        """(exact index or None, name index or None) over the static and dynamic tables."""
        exact = name = None
        for i, (tn, tv) in enumerate(STATIC + self.entries, 1):
            if tn == n:
                name = name or i
                if tv == v:
                    return i, name
        return exact, name


class Encoder:
    """Request header blocks with explicit choices of representation (never Huffman)."""

    def __init__(self, rng):
        self.t, self.rng = Table(), rng

    def block(self, fields, size_updates=()):
        out = bytearray()
        for size in size_updates:
            out += enc_int(size, 5, 0x20)
            self.t.max = size
            self.t.evict()
        for n, v, mode in fields:
            exact, name = self.t.find(n, v)
            if mode == "index" and exact:
                out += enc_int(exact, 7, 0x80)
                continue
            first, bits = {"inc": (0x40, 6), "index": (0x40, 6), "noidx": (0x00, 4), "never": (0x10, 4)}[mode]
            if name and self.rng.random() < 0.7:
                out += enc_int(name, bits, first)
            else:
                out += enc_int(0, bits, first) + enc_str(n)
            out += enc_str(v)
            if first == 0x40:
                self.t.add(n, v)
        return bytes(out)


def decode_block(table, data):
    pos, out = 0, []

    def integer(bits):
        nonlocal pos
        mask = (1 << bits) - 1
        val = data[pos] & mask
        pos += 1
        if val < mask:
            return val
        shift = 0
        while True:
            b = data[pos]
            pos += 1
            val += (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return val

    def string():
        nonlocal pos
        assert not data[pos] & 0x80, "the server used Huffman coding in a response"
        n = integer(7)
        s = bytes(data[pos:pos + n])
        pos += n
        return s

    while pos < len(data):
        b = data[pos]
        if b & 0x80:
            out.append(table.get(integer(7)))
        elif b & 0x40:
            i = integer(6)
            n = table.get(i)[0] if i else string()
            v = string()
            table.add(n, v)
            out.append((n, v))
        elif b & 0x20:
            table.max = integer(5)
            table.evict()
        else:
            i = integer(4)
            n = table.get(i)[0] if i else string()
            out.append((n, string()))
    return out


def frame(ftype, flags, sid, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([ftype, flags]) + struct.pack(">I", sid) + payload


class Client:
    def __init__(self, rng, settings=(), auto_grant=True):
        self.rng = rng
        self.sock = socket.create_connection(("127.0.0.1", PORT), timeout=TIMEOUT)
        self.buf = b""
        self.enc = Encoder(rng)
        self.resp_table = Table()
        self.auto_grant = auto_grant
        self.my_initial = 65535
        self.pending = []  # deltas of our SETTINGS_INITIAL_WINDOW_SIZE not yet acknowledged
        self.recv_conn, self.recv = 65535, {}
        self.send_conn, self.send = 65535, {}
        self.server_initial, self.server_max_frame = 65535, 16384
        self.streams = {}
        self.pings, self.goaway, self.eof, self.acks = [], None, False, 0
        self.block = None
        payload = b"".join(struct.pack(">HI", k, v) for k, v in settings)
        self.sock.sendall(PREFACE + frame(SETTINGS, 0, 0, payload))
        self.pending.extend(v - 65535 for k, v in settings if k == 4)
        for k, v in settings:
            if k == 4:
                self.my_initial = v
        first = self.read_raw()
        assert first is not None and first[0] == SETTINGS and not first[1] & ACK and first[2] == 0,             f"the server's first frame must be its SETTINGS frame, got {first!r}"
        self.server_settings(first[3])

    def close(self):
        self.sock.close()

    def read_raw(self):
        while len(self.buf) < 9 or len(self.buf) < 9 + int.from_bytes(self.buf[:3], "big"):
            try:
                d = self.sock.recv(1 << 20)
            except ConnectionResetError:
                d = b""
            if not d:
                return None
            self.buf += d
        n = int.from_bytes(self.buf[:3], "big")
        f = (self.buf[3], self.buf[4], int.from_bytes(self.buf[5:9], "big") & 0x7FFFFFFF, self.buf[9:9 + n])
        self.buf = self.buf[9 + n:]
        return f

    def server_settings(self, payload):
        for off in range(0, len(payload), 6):
            k, v = struct.unpack(">HI", payload[off:off + 6])
            if k == 4:
                for sid in self.send:
                    self.send[sid] += v - self.server_initial
                self.server_initial = v
            elif k == 5:
                self.server_max_frame = v
        self.sock.sendall(frame(SETTINGS, ACK, 0))

    def step(self):
        f = self.read_raw()
        if f is None:
            self.eof = True
            return
        ftype, flags, sid, payload = f
        if self.block is not None:
            assert ftype == CONTINUATION and sid == self.block[0], "header block interrupted"
        if ftype == SETTINGS:
            assert sid == 0
            if flags & ACK:
                self.acks += 1
                if self.pending:
                    delta = self.pending.pop(0)
                    for s in self.recv:
                        self.recv[s] += delta
            else:
                self.server_settings(payload)
        elif ftype == PING:
            assert sid == 0 and len(payload) == 8
            if flags & ACK:
                self.pings.append(payload)
            else:
                self.sock.sendall(frame(PING, ACK, 0, payload))
        elif ftype == WINDOW_UPDATE:
            inc = int.from_bytes(payload, "big") & 0x7FFFFFFF
            if sid == 0:
                self.send_conn += inc
            elif sid in self.send:
                self.send[sid] += inc
        elif ftype == GOAWAY:
            self.goaway = struct.unpack(">II", payload[:8])
        elif ftype in (HEADERS, CONTINUATION):
            st = self.streams.get(sid)
            assert st is not None, f"{ftype} frame on a stream the client never opened: {sid}"
            if ftype == HEADERS:
                assert st["headers"] is None, "second header block on a stream"
                frag = payload
                if flags & PADDED:
                    frag = frag[1:len(frag) - frag[0]]
                if flags & PRIO:
                    frag = frag[5:]
                self.block = [sid, flags, bytearray(frag)]
            else:
                self.block[2] += payload
            if flags & END_HEADERS:
                bsid, bflags, data = self.block
                self.block = None
                st["headers"] = decode_block(self.resp_table, bytes(data))
                if bflags & END_STREAM:
                    st["done"] = True
        elif ftype == DATA:
            st = self.streams.get(sid)
            assert st is not None and st["headers"] is not None, "DATA before the response headers"
            assert not st["done"], "DATA after END_STREAM"
            assert not st["reset"], "DATA on a stream after the client reset it"
            n = len(payload)
            assert n <= 16384, f"DATA frame of {n} bytes exceeds SETTINGS_MAX_FRAME_SIZE 16384"
            allowance = self.recv[sid] + sum(d for d in self.pending if d > 0)
            assert n <= self.recv_conn, f"DATA of {n} bytes with a connection window of {self.recv_conn}"
            assert n <= allowance, f"DATA of {n} bytes with a stream window of {self.recv[sid]}"
            self.recv_conn -= n
            self.recv[sid] -= n
            data = payload
            if flags & PADDED:
                data = data[1:len(data) - data[0]]
            st["body"] += data
            if flags & END_STREAM:
                st["done"] = True
            if self.auto_grant and n:
                self.grant(0, n)
                if not st["done"]:
                    self.grant(sid, n)
        elif ftype == RST_STREAM:
            raise AssertionError(f"the server reset stream {sid}")

    def wait(self, cond, what):
        while not cond():
            assert not self.eof, f"connection closed while waiting for {what}"
            self.step()

    def grant(self, sid, n):
        self.sock.sendall(frame(WINDOW_UPDATE, 0, sid, struct.pack(">I", n)))
        if sid == 0:
            self.recv_conn += n
        else:
            self.recv[sid] += n

    def settings(self, pairs):
        self.sock.sendall(frame(SETTINGS, 0, 0, b"".join(struct.pack(">HI", k, v) for k, v in pairs)))
        for k, v in pairs:
            if k == 4:
                self.pending.append(v - self.my_initial)
                self.my_initial = v

    def barrier(self):
        token = os.urandom(8)
        self.sock.sendall(frame(PING, 0, 0, token))
        self.wait(lambda: token in self.pings, "a PING acknowledgement")

    def request(self, sid, fields, end_stream=True, size_updates=(), split=True):
        block = self.enc.block(fields, size_updates)
        self.streams[sid] = {"headers": None, "body": bytearray(), "done": False, "reset": False}
        self.recv[sid] = self.my_initial - sum(self.pending)
        self.send[sid] = self.server_initial
        cuts = sorted(self.rng.sample(range(1, len(block)), min(3, len(block) - 1))) if split and len(block) > 4 else []
        parts = [block[a:b] for a, b in zip([0] + cuts, cuts + [len(block)])]
        flags, first = 0, parts[0]
        if self.rng.random() < 0.5:
            pad = self.rng.randrange(0, 40)
            flags |= PADDED
            first = bytes([pad]) + first + b"\0" * pad
        if self.rng.random() < 0.5:
            flags |= PRIO
            first = first[:1] + struct.pack(">IB", 0, 15) + first[1:] if flags & PADDED else struct.pack(">IB", 0, 15) + first
        if end_stream:
            flags |= END_STREAM
        out = []
        for i, part in enumerate(parts):
            last = END_HEADERS if i == len(parts) - 1 else 0
            out.append(frame(HEADERS, flags | last, sid, first) if i == 0 else frame(CONTINUATION, last, sid, part))
        self.sock.sendall(b"".join(out))

    def send_data(self, sid, data, end, pad=None):
        """One DATA frame, after waiting for both of the server's windows."""
        payload = data if pad is None else bytes([pad]) + data + b"\0" * pad
        need = len(payload)
        assert need <= self.server_max_frame
        self.wait(lambda: self.send_conn >= need and self.send[sid] >= need, "window from the server (WINDOW_UPDATE)")
        self.send_conn -= need
        self.send[sid] -= need
        self.sock.sendall(frame(DATA, (END_STREAM if end else 0) | (PADDED if pad is not None else 0), sid, payload))

    def response(self, sid):
        self.wait(lambda: self.streams[sid]["done"], f"the response on stream {sid}")
        st = self.streams[sid]
        h = dict(st["headers"])
        return h.get(b":status"), h, bytes(st["body"])


def get(path, authority=b"svc.internal"):
    return [(b":method", b"GET", "index"), (b":scheme", b"http", "index"), (b":path", path, "noidx"),
            (b":authority", authority, "inc")]


def blob(size, seed):
    return bytes((seed + 31 * i + i // 256) % 256 for i in range(size))


def check_ok(status, h, body):
    assert status == b"200", f"status {status!r}"
    assert h.get(b"content-length") == str(len(body)).encode(), "content-length must match the body"


def test_preface_settings_ping_and_404():
    c = Client(random.Random(1))
    token = os.urandom(8)
    c.sock.sendall(frame(PING, 0, 0, token))
    c.wait(lambda: token in c.pings and c.acks >= 1, "PING ACK and SETTINGS ACK")
    c.request(1, get(b"/no/such/thing"))
    status, h, body = c.response(1)
    assert status == b"404" and body == b"" and h.get(b"content-length") == b"0"
    c.request(3, get(b"/blob?size=0&seed=3"))
    status, h, body = c.response(3)
    check_ok(status, h, body)
    assert body == b""
    c.close()


def headers_expected(fields):
    return b"".join(n + b": " + v + b"\n" for n, v, _ in fields)


def test_hpack_dynamic_table_and_continuations():
    rng = random.Random(2024)
    c = Client(rng)
    names = [b"x-trace-%d" % i for i in range(6)] + [b"user-agent", b"accept", b"cookie", b"x-long"]
    values = {n: [bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz0123456789-_./") for _ in range(rng.randrange(3, 40)))
                  for _ in range(3)] for n in names}
    values[b"x-long"] = [bytes(rng.choice(b"ABCDEFGHIJKLMNOP") for _ in range(rng.randrange(150, 400))) for _ in range(3)]
    sid = 1
    for req in range(40):
        fields = get(b"/headers", b"h%d.svc.internal" % (req % 5))
        fields[2] = (b":path", b"/headers", rng.choice(["inc", "index", "noidx", "never"]))
        for _ in range(rng.randrange(2, 9)):
            n = rng.choice(names)
            fields.append((n, rng.choice(values[n]), rng.choice(["inc", "inc", "index", "index", "noidx", "never"])))
        updates = ()
        if req == 15:
            updates = (0, 2048)
        elif req == 27:
            updates = (300,)
        elif req == 33:
            updates = (4096,)
        c.request(sid, fields, size_updates=updates)
        status, h, body = c.response(sid)
        check_ok(status, h, body)
        assert body == headers_expected(fields), f"request {req}: decoded headers differ"
        sid += 2
    assert len(c.enc.t.entries) > 20
    c.close()


def test_separate_tables_per_connection():
    rng = random.Random(77)
    a, b = Client(rng), Client(rng)
    sid = 1
    for i in range(12):
        for cl, tag in ((a, b"A"), (b, b"B")):
            fields = get(b"/headers") + [(b"x-conn", tag + b"-%d" % (i // 3), "index"),
                                         (b"x-seq", tag * (i + 1), "inc")]
            cl.request(sid, fields)
            status, h, body = cl.response(sid)
            check_ok(status, h, body)
            assert body == headers_expected(fields), "each connection has its own HPACK dynamic table"
        sid += 2
    a.close()
    b.close()


def test_uploads_need_window_updates():
    rng = random.Random(5150)
    c = Client(rng)
    body1 = rng.randbytes(300000)
    body2 = rng.randbytes(120000)
    post = [(b":method", b"POST", "index"), (b":scheme", b"http", "index"), (b":path", b"/sha256", "inc"),
            (b":authority", b"up.svc.internal", "inc"), (b"content-type", b"application/octet-stream", "noidx")]
    c.request(1, post, end_stream=False)
    c.request(3, post, end_stream=False)
    pos1 = pos2 = 0
    while pos1 < len(body1) or pos2 < len(body2):
        if pos1 < len(body1):
            n = min(rng.randrange(1, c.server_max_frame - 300), len(body1) - pos1)
            pad = rng.randrange(0, 256) if rng.random() < 0.3 else None
            c.send_data(1, body1[pos1:pos1 + n], pos1 + n == len(body1), pad)
            pos1 += n
        if pos2 < len(body2):
            n = min(400, len(body2) - pos2)
            c.send_data(3, body2[pos2:pos2 + n], pos2 + n == len(body2), 255)  # padding counts against the window
            pos2 += n
    for sid, body in ((1, body1), (3, body2)):
        status, h, got = c.response(sid)
        check_ok(status, h, got)
        assert got == hashlib.sha256(body).hexdigest().encode() + b"\n"
    c.close()


def test_download_respects_windows_and_frame_size():
    rng = random.Random(31337)
    initial = rng.randrange(20000, 40000)
    c = Client(rng, settings=[(4, initial)], auto_grant=False)
    c.wait(lambda: c.acks >= 1, "SETTINGS ACK")
    size, seed = 200000 + rng.randrange(1000), rng.randrange(256)
    c.request(1, get(b"/blob?size=%d&seed=%d" % (size, seed)))
    st = c.streams[1]
    while not st["done"]:
        if c.recv[1] <= 0:
            c.grant(1, rng.randrange(1, 30000))
        if c.recv_conn <= 0:
            c.grant(0, rng.randrange(1, 30000))
        c.step()
        assert not c.eof
    status, h, body = c.response(1)
    check_ok(status, h, body)
    assert body == blob(size, seed)
    c.close()


def test_stalled_stream_and_initial_window_changes():
    rng = random.Random(4242)
    c = Client(rng, settings=[(4, 1000)], auto_grant=False)
    c.wait(lambda: c.acks >= 1, "SETTINGS ACK")
    c.grant(0, 1 << 24)
    c.request(1, get(b"/blob?size=30000&seed=9"))
    c.wait(lambda: len(c.streams[1]["body"]) == 1000, "the first 1000 bytes of stream 1")
    c.request(3, get(b"/headers"))
    status, h, body = c.response(3)  # stream 1 is stalled on its window: stream 3 must still be answered
    check_ok(status, h, body)
    c.settings([(4, 0)])
    c.wait(lambda: c.acks >= 2, "SETTINGS ACK")
    assert c.recv[1] == -1000
    c.grant(1, 600)  # the stream window is now -400: nothing may be sent
    c.barrier()
    assert len(c.streams[1]["body"]) == 1000
    c.settings([(4, 3000)])  # -400 + 3000: 2600 more bytes may come
    c.wait(lambda: len(c.streams[1]["body"]) == 3600, "2600 more bytes after SETTINGS_INITIAL_WINDOW_SIZE grew")
    c.barrier()
    c.request(5, get(b"/blob?size=5000&seed=200"))
    c.wait(lambda: len(c.streams[5]["body"]) == 3000, "3000 bytes of stream 5 (new initial window)")
    c.barrier()
    assert len(c.streams[1]["body"]) == 3600 and len(c.streams[5]["body"]) == 3000
    c.grant(5, 2000)
    c.grant(1, 30000 - 3600)
    s1, h1, b1 = c.response(1)
    s5, h5, b5 = c.response(5)
    check_ok(s1, h1, b1)
    check_ok(s5, h5, b5)
    assert b1 == blob(30000, 9) and b5 == blob(5000, 200)
    c.close()


def test_rst_stream_stops_that_stream_only():
    rng = random.Random(99)
    c = Client(rng, settings=[(4, 1 << 20)], auto_grant=False)
    c.wait(lambda: c.acks >= 1, "SETTINGS ACK")
    c.request(1, get(b"/blob?size=400000&seed=1"))
    c.wait(lambda: c.recv_conn == 0, "the connection window to be used up")
    c.sock.sendall(frame(RST_STREAM, 0, 1, struct.pack(">I", 0x8)))
    c.streams[1]["reset"] = True
    c.barrier()
    c.grant(0, 1 << 24)
    c.request(3, get(b"/blob?size=70000&seed=2"))
    status, h, body = c.response(3)
    check_ok(status, h, body)
    assert body == blob(70000, 2)
    c.barrier()
    c.request(5, get(b"/headers"))
    assert c.response(5)[0] == b"200"
    c.close()


def goaway_code(c):
    c.wait(lambda: c.goaway is not None or c.eof, "GOAWAY")
    assert c.goaway is not None, "the server closed without GOAWAY"
    while not c.eof:
        c.step()
    return c.goaway[1]


def test_connection_errors_send_goaway():
    c = Client(random.Random(3))
    c.request(1, get(b"/headers"))
    assert c.response(1)[0] == b"200"
    c.streams[3] = {"headers": None, "body": bytearray(), "done": False, "reset": False}
    c.sock.sendall(frame(HEADERS, END_HEADERS | END_STREAM, 3, b"\x82\x86" + enc_int(70 + len(c.enc.t.entries), 7, 0x80)))
    assert goaway_code(c) == 0x9, "an index that refers to no entry is a COMPRESSION_ERROR"
    c.close()
    d = Client(random.Random(4))
    d.wait(lambda: d.acks >= 1, "SETTINGS ACK")
    d.sock.sendall(struct.pack(">I", 16385)[1:] + bytes([DATA, 0]) + struct.pack(">I", 1))
    assert goaway_code(d) == 0x6, "a frame over 16384 bytes is a FRAME_SIZE_ERROR"
    d.close()
