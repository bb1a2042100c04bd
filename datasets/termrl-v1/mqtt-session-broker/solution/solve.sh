#!/bin/bash
set -euo pipefail
mkdir -p /app/mqtt
cat > /app/mqtt/broker.py <<'PY'
"""MQTT 3.1.1 broker subset: QoS 0/1, wildcards, retained messages, wills, persistent sessions, takeover."""
import asyncio
import itertools
import os
import struct

CONNECT, CONNACK, PUBLISH, PUBACK = 1, 2, 3, 4
SUBSCRIBE, SUBACK, UNSUBSCRIBE, UNSUBACK, PINGREQ, PINGRESP, DISCONNECT = 8, 9, 10, 11, 12, 13, 14


class Violation(Exception):
    pass


def enc_len(n):
    out = bytearray()
    while True:
        b = n % 128
        n //= 128
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def packet(first, body=b""):
    return bytes([first]) + enc_len(len(body)) + body


def mstr(b):
    return struct.pack(">H", len(b)) + b


def valid_filter(f):
    if not f:
        return False
    levels = f.split(b"/")
    for i, lv in enumerate(levels):
        if b"#" in lv and (lv != b"#" or i != len(levels) - 1):
            return False
        if b"+" in lv and lv != b"+":
            return False
    return True


def matches(filt, topic):
    if topic.startswith(b"$") and filt[:1] in (b"+", b"#"):
        return False
    f, t = filt.split(b"/"), topic.split(b"/")
    for i, part in enumerate(f):
        if part == b"#":
            return True
        if i >= len(t) or (part != b"+" and part != t[i]):
            return False
    return len(f) == len(t)


class Session:
    def __init__(self, cid, clean):
        self.cid, self.clean = cid, clean
        self.subs = {}
        self.conn = None
        self.inflight = {}  # packet id -> (topic, payload), sent and not yet acknowledged, in send order
        self.queue = []  # QoS 1 messages stored while offline
        self.pids = itertools.cycle(range(1, 65536))

    def next_pid(self):
        while True:
            pid = next(self.pids)
            if pid not in self.inflight:
                return pid

    def deliver(self, topic, payload, qos, retain=False):
        if qos == 0:
            if self.conn:
                self.conn.send(packet(0x30 | (1 if retain else 0), mstr(topic) + payload))
            return
        if not self.conn:
            self.queue.append((topic, payload))
            return
        pid = self.next_pid()
        self.inflight[pid] = (topic, payload)
        self.conn.send(packet(0x32 | (1 if retain else 0), mstr(topic) + struct.pack(">H", pid) + payload))

    def resume(self):
        for pid, (topic, payload) in self.inflight.items():
            self.conn.send(packet(0x3A, mstr(topic) + struct.pack(">H", pid) + payload))
        queued, self.queue = self.queue, []
        for topic, payload in queued:
            self.deliver(topic, payload, 1)


SESSIONS = {}
RETAINED = {}
AUTO = itertools.count(1)


def route(topic, payload, qos):
    for s in list(SESSIONS.values()):
        granted = [q for f, q in s.subs.items() if matches(f, topic)]
        if granted:
            s.deliver(topic, payload, min(qos, max(granted)))


def publish(topic, payload, qos, retain):
    if retain:
        if payload:
            RETAINED[topic] = (payload, qos)
        else:
            RETAINED.pop(topic, None)
    route(topic, payload, qos)


class Conn:
    def __init__(self, reader, writer):
        self.r, self.w = reader, writer
        self.session = None
        self.will = None
        self.taken_over = False

    def send(self, data):
        if not self.w.is_closing():
            self.w.write(data)

    async def read_packet(self):
        first = (await self.r.readexactly(1))[0]
        n, mult = 0, 1
        for _ in range(4):
            b = (await self.r.readexactly(1))[0]
            n += (b & 0x7F) * mult
            mult *= 128
            if not b & 0x80:
                break
        else:
            raise Violation()
        return first, await self.r.readexactly(n)

    async def run(self):
        clean_exit = False
        try:
            first, body = await self.read_packet()
            if first >> 4 != CONNECT or not self.connect(body):
                return
            while True:
                first, body = await self.read_packet()
                if not self.handle(first, body):
                    clean_exit = True
                    return
                await self.w.drain()
        except (asyncio.IncompleteReadError, ConnectionError, OSError, Violation, IndexError, struct.error):
            pass
        finally:
            self.close(clean_exit)

    def close(self, clean_exit):
        s = self.session
        if s is not None and s.conn is self:
            s.conn = None
            if s.clean and SESSIONS.get(s.cid) is s:
                del SESSIONS[s.cid]
        if self.will and not clean_exit and not self.taken_over:
            topic, payload, qos, retain = self.will
            publish(topic, payload, qos, retain)
        self.will = None
        self.w.close()

    def connect(self, body):
        pos = 0

        def take_str():
            nonlocal pos
            (n,) = struct.unpack(">H", body[pos:pos + 2])
            s = body[pos + 2:pos + 2 + n]
            if len(s) != n:
                raise Violation()
            pos += 2 + n
            return s

        name = take_str()
        level, flags = body[pos], body[pos + 1]
        pos += 4  # level, flags, keep alive
        if name != b"MQTT" or level != 4:
            self.send(packet(0x20, b"\x00\x01"))
            return False
        if flags & 1:
            raise Violation()
        clean = bool(flags & 2)
        cid = take_str()
        if flags & 4:
            wt, wp = take_str(), take_str()
            self.will = (wt, wp, min((flags >> 3) & 3, 1), bool(flags & 0x20))
        if not cid:
            if not clean:
                self.send(packet(0x20, b"\x00\x02"))
                return False
            cid = b"auto-%d-%d" % (os.getpid(), next(AUTO))
        old = SESSIONS.get(cid)
        if old is not None and old.conn is not None:
            old.conn.taken_over = True
            old.conn.w.close()
            old.conn = None
        if clean or old is None or old.clean:
            present = False
            s = SESSIONS[cid] = Session(cid, clean)
        else:
            present = True
            s = old
        s.conn = self
        self.session = s
        self.send(packet(0x20, bytes([1 if present else 0, 0])))
        if present:
            s.resume()
        return True

    def handle(self, first, body):
        ptype, flags = first >> 4, first & 0x0F
        s = self.session
        if ptype == PUBLISH:
            qos = (flags >> 1) & 3
            if qos > 1:
                raise Violation()
            (n,) = struct.unpack(">H", body[:2])
            topic = body[2:2 + n]
            if len(topic) != n or not topic or b"+" in topic or b"#" in topic:
                raise Violation()
            pos = 2 + n
            pid = None
            if qos:
                (pid,) = struct.unpack(">H", body[pos:pos + 2])
                pos += 2
            publish(topic, body[pos:], qos, bool(flags & 1))
            if qos:
                self.send(packet(0x40, struct.pack(">H", pid)))
        elif ptype == PUBACK:
            (pid,) = struct.unpack(">H", body[:2])
            s.inflight.pop(pid, None)
        elif ptype == SUBSCRIBE:
            if flags != 2:
                raise Violation()
            (pid,) = struct.unpack(">H", body[:2])
            pos, granted, new = 2, [], []
            while pos < len(body):
                (n,) = struct.unpack(">H", body[pos:pos + 2])
                filt = body[pos + 2:pos + 2 + n]
                req = body[pos + 2 + n]
                pos += 3 + n
                if not valid_filter(filt) or req > 2:
                    granted.append(0x80)
                    continue
                q = min(req, 1)
                s.subs[filt] = q
                granted.append(q)
                new.append((filt, q))
            if not granted:
                raise Violation()
            self.send(packet(0x90, struct.pack(">H", pid) + bytes(granted)))
            for filt, q in new:
                for topic in sorted(RETAINED):
                    if matches(filt, topic):
                        payload, rq = RETAINED[topic]
                        s.deliver(topic, payload, min(rq, q), retain=True)
        elif ptype == UNSUBSCRIBE:
            if flags != 2:
                raise Violation()
            (pid,) = struct.unpack(">H", body[:2])
            pos = 2
            while pos < len(body):
                (n,) = struct.unpack(">H", body[pos:pos + 2])
                s.subs.pop(body[pos + 2:pos + 2 + n], None)
                pos += 2 + n
            self.send(packet(0xB0, struct.pack(">H", pid)))
        elif ptype == PINGREQ:
            self.send(packet(0xD0))
        elif ptype == DISCONNECT:
            self.will = None
            return False
        else:
            raise Violation()
        return True


async def client(reader, writer):
    await Conn(reader, writer).run()


async def main():
    port = int(os.environ.get("MQTT_PORT", "1883"))
    server = await asyncio.start_server(client, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


asyncio.run(main())
PY
cat > /app/mqtt/run.sh <<'SH'
#!/bin/bash
exec python3 /app/mqtt/broker.py
SH
chmod +x /app/mqtt/run.sh
