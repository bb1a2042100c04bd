#!/bin/bash
set -euo pipefail
mkdir -p /app/h2
cat > /app/h2/server.py <<'PY'
"""Minimal h2c (prior knowledge) server: framing, HPACK decoding, flow control both ways, multiplexing."""
import asyncio
import hashlib
import os
import struct
from urllib.parse import parse_qs, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
STATIC = []
for line in open(os.path.join(HERE, "hpack_static_table.txt"), encoding="latin-1"):
    idx, name, value = line.rstrip("\n").split("\t")
    STATIC.append((name.encode("latin-1"), value.encode("latin-1")))

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = range(10)
END_STREAM, ACK, END_HEADERS, PADDED, PRIO = 0x1, 0x1, 0x4, 0x8, 0x20
PROTOCOL_ERROR, FLOW_CONTROL_ERROR, FRAME_SIZE_ERROR, COMPRESSION_ERROR = 0x1, 0x3, 0x6, 0x9
MAX_FRAME = 16384


class ConnError(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code


class Decoder:
    def __init__(self, size=4096):
        self.table, self.size, self.max, self.limit = [], 0, size, size

    def evict(self):
        while self.size > self.max:
            n, v = self.table.pop()
            self.size -= len(n) + len(v) + 32

    def add(self, n, v):
        self.table.insert(0, (n, v))
        self.size += len(n) + len(v) + 32
        self.evict()

    def get(self, i):
        if 1 <= i <= len(STATIC):
            return STATIC[i - 1]
        j = i - len(STATIC) - 1
        if i == 0 or j >= len(self.table):
            raise ConnError(COMPRESSION_ERROR)
        return self.table[j]

    def decode(self, data):
        pos, out = 0, []

        def integer(bits):
            nonlocal pos
            if pos >= len(data):
                raise ConnError(COMPRESSION_ERROR)
            mask = (1 << bits) - 1
            val = data[pos] & mask
            pos += 1
            if val < mask:
                return val
            shift = 0
            while True:
                if pos >= len(data) or shift > 56:
                    raise ConnError(COMPRESSION_ERROR)
                b = data[pos]
                pos += 1
                val += (b & 0x7F) << shift
                shift += 7
                if not b & 0x80:
                    return val

        def string():
            nonlocal pos
            if pos >= len(data) or data[pos] & 0x80:
                raise ConnError(COMPRESSION_ERROR)  # Huffman is not supported
            n = integer(7)
            if pos + n > len(data):
                raise ConnError(COMPRESSION_ERROR)
            s = bytes(data[pos:pos + n])
            pos += n
            return s

        while pos < len(data):
            b = data[pos]
            if b & 0x80:
                out.append(self.get(integer(7)))
            elif b & 0x40:
                i = integer(6)
                name = self.get(i)[0] if i else string()
                value = string()
                self.add(name, value)
                out.append((name, value))
            elif b & 0x20:
                size = integer(5)
                if size > self.limit:
                    raise ConnError(COMPRESSION_ERROR)
                self.max = size
                self.evict()
            else:
                i = integer(4)
                name = self.get(i)[0] if i else string()
                out.append((name, string()))
        return out


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


def encode_headers(fields):
    out = bytearray()
    for n, v in fields:
        out += b"\x00" + enc_int(len(n), 7) + n + enc_int(len(v), 7) + v
    return bytes(out)


def blob(size, seed):
    return bytes((seed + 31 * i + i // 256) % 256 for i in range(size))


def application(headers, body):
    h = {}
    for n, v in headers:
        h.setdefault(n, v)
    method, path = h.get(b":method", b""), h.get(b":path", b"").decode("latin-1")
    url = urlsplit(path)
    if method == b"GET" and url.path == "/headers":
        return 200, b"".join(n + b": " + v + b"\n" for n, v in headers)
    if method == b"POST" and url.path == "/sha256":
        return 200, hashlib.sha256(body).hexdigest().encode() + b"\n"
    if method == b"GET" and url.path == "/blob":
        q = parse_qs(url.query)
        try:
            size, seed = int(q["size"][0]), int(q["seed"][0])
        except (KeyError, ValueError):
            return 404, b""
        return 200, blob(size, seed)
    return 404, b""


class Stream:
    def __init__(self, sid, window):
        self.sid, self.window = sid, window
        self.headers, self.body = None, bytearray()
        self.closed = False


class Connection:
    def __init__(self, reader, writer):
        self.r, self.w = reader, writer
        self.decoder = Decoder()
        self.streams = {}
        self.peer_initial = 65535
        self.peer_max_frame = 16384
        self.send_window = 65535
        self.cond = asyncio.Condition()
        self.tasks = set()
        self.block = None  # (sid, flags, bytearray) while a header block is open

    def frame(self, ftype, flags, sid, payload=b""):
        self.w.write(struct.pack(">I", len(payload))[1:] + bytes([ftype, flags]) + struct.pack(">I", sid) + payload)

    async def notify(self):
        async with self.cond:
            self.cond.notify_all()

    async def run(self):
        try:
            if await self.r.readexactly(24) != PREFACE:
                return
            self.frame(SETTINGS, 0, 0)
            await self.w.drain()
            while True:
                head = await self.r.readexactly(9)
                length = int.from_bytes(head[:3], "big")
                ftype, flags = head[3], head[4]
                sid = int.from_bytes(head[5:9], "big") & 0x7FFFFFFF
                if length > MAX_FRAME:
                    raise ConnError(FRAME_SIZE_ERROR)
                payload = await self.r.readexactly(length)
                await self.handle(ftype, flags, sid, payload)
                await self.w.drain()
        except ConnError as e:
            last = max(self.streams) if self.streams else 0
            self.frame(GOAWAY, 0, 0, struct.pack(">II", last, e.code))
            try:
                await self.w.drain()
            except OSError:
                pass
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        finally:
            for t in self.tasks:
                t.cancel()
            self.w.close()

    def unpad(self, flags, payload):
        if flags & PADDED:
            if not payload or payload[0] >= len(payload):
                raise ConnError(PROTOCOL_ERROR)
            return payload[1:len(payload) - payload[0]]
        return payload

    async def handle(self, ftype, flags, sid, payload):
        if self.block is not None and ftype != CONTINUATION:
            raise ConnError(PROTOCOL_ERROR)
        if ftype == HEADERS:
            frag = self.unpad(flags, payload)
            if flags & PRIO:
                frag = frag[5:]
            self.block = (sid, flags, bytearray(frag))
            if flags & END_HEADERS:
                self.end_block()
        elif ftype == CONTINUATION:
            if self.block is None or self.block[0] != sid:
                raise ConnError(PROTOCOL_ERROR)
            self.block[2].extend(payload)
            if flags & END_HEADERS:
                self.end_block()
        elif ftype == DATA:
            if payload:
                self.frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", len(payload)))
            st = self.streams.get(sid)
            if st is None or st.headers is None:
                return
            data = self.unpad(flags, payload)
            st.body.extend(data)
            if payload and not flags & END_STREAM:
                self.frame(WINDOW_UPDATE, 0, sid, struct.pack(">I", len(payload)))
            if flags & END_STREAM:
                self.dispatch(st)
        elif ftype == SETTINGS:
            if flags & ACK:
                return
            for off in range(0, len(payload) - len(payload) % 6, 6):
                ident, value = struct.unpack(">HI", payload[off:off + 6])
                if ident == 0x4:
                    delta = value - self.peer_initial
                    self.peer_initial = value
                    for st in self.streams.values():
                        st.window += delta
                elif ident == 0x5:
                    self.peer_max_frame = value
            self.frame(SETTINGS, ACK, 0)
            await self.notify()
        elif ftype == PING:
            if not flags & ACK:
                self.frame(PING, ACK, 0, payload)
        elif ftype == WINDOW_UPDATE:
            inc = int.from_bytes(payload[:4], "big") & 0x7FFFFFFF
            if sid == 0:
                self.send_window += inc
            elif sid in self.streams:
                self.streams[sid].window += inc
            await self.notify()
        elif ftype == RST_STREAM:
            st = self.streams.get(sid)
            if st is not None:
                st.closed = True
            await self.notify()
        # PRIORITY, GOAWAY and unknown types: nothing to do

    def end_block(self):
        sid, flags, block = self.block
        self.block = None
        headers = self.decoder.decode(bytes(block))
        st = self.streams.get(sid)
        if st is None:
            st = self.streams[sid] = Stream(sid, self.peer_initial)
            st.headers = headers
        if flags & END_STREAM:
            self.dispatch(st)

    def dispatch(self, st):
        t = asyncio.ensure_future(self.respond(st))
        self.tasks.add(t)
        t.add_done_callback(self.tasks.discard)

    async def respond(self, st):
        status, body = application(st.headers, bytes(st.body))
        if st.closed:
            return
        block = encode_headers([(b":status", str(status).encode()), (b"content-length", str(len(body)).encode())])
        self.frame(HEADERS, END_HEADERS | (0 if body else END_STREAM), st.sid, block)
        pos = 0
        while pos < len(body):
            async with self.cond:
                await self.cond.wait_for(lambda: st.closed or (st.window > 0 and self.send_window > 0))
            if st.closed:
                return
            n = min(len(body) - pos, st.window, self.send_window, self.peer_max_frame)
            st.window -= n
            self.send_window -= n
            pos += n
            self.frame(DATA, END_STREAM if pos == len(body) else 0, st.sid, body[pos - n:pos])
            await self.w.drain()
        st.closed = True


async def client(reader, writer):
    await Connection(reader, writer).run()


async def main():
    port = int(os.environ.get("H2_PORT", "7080"))
    server = await asyncio.start_server(client, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


asyncio.run(main())
PY
cat > /app/h2/run.sh <<'SH'
#!/bin/bash
exec python3 /app/h2/server.py
SH
chmod +x /app/h2/run.sh
