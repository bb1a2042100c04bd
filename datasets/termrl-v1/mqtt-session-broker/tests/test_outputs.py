"""An MQTT client written here drives the broker; topic trees, subscriptions and traffic are generated per test."""
import os
import random
import signal
import socket
import struct
import subprocess
import time

import pytest

TIMEOUT = 120  # hang guard for every socket read; never a speed bar


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()


@pytest.fixture(scope="module", autouse=True)
def broker():
    proc = subprocess.Popen(["bash", "/app/mqtt/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, MQTT_PORT=str(PORT)),
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


def connect_packet(cid, clean=True, will=None, level=4, name=b"MQTT", user=None):
    flags = 2 if clean else 0
    payload = mstr(cid)
    if will:
        topic, msg, qos, retain = will
        flags |= 4 | (qos << 3) | (0x20 if retain else 0)
        payload += mstr(topic) + mstr(msg)
    if user:
        flags |= 0xC0
        payload += mstr(user) + mstr(b"secret")
    return packet(0x10, mstr(name) + bytes([level, flags]) + struct.pack(">H", 60) + payload)


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


class Client:
    def __init__(self, cid, clean=True, will=None, auto_ack=True, expect=0, **kw):
        self.sock = socket.create_connection(("127.0.0.1", PORT), timeout=TIMEOUT)
        self.buf = b""
        self.auto_ack = auto_ack
        self.msgs, self.acks, self.subacks, self.unsubacks, self.pongs = [], [], {}, [], 0
        self.eof = False
        self.pid = 0
        self.sock.sendall(connect_packet(cid, clean, will, **kw))
        first, body = self.read_packet()
        assert first == 0x20 and len(body) == 2, f"expected CONNACK, got {first:#x} {body!r}"
        self.present, self.rc = body[0], body[1]
        assert self.rc == expect, f"CONNACK return code {self.rc}, expected {expect}"

    def read_packet(self):
        while True:
            if len(self.buf) >= 2:
                n, mult, i = 0, 1, 1
                while i < len(self.buf):
                    b = self.buf[i]
                    n += (b & 0x7F) * mult
                    mult *= 128
                    i += 1
                    if not b & 0x80:
                        if len(self.buf) >= i + n:
                            first, body = self.buf[0], self.buf[i:i + n]
                            self.buf = self.buf[i + n:]
                            return first, body
                        break
            try:
                d = self.sock.recv(1 << 20)
            except ConnectionResetError:
                d = b""
            if not d:
                self.eof = True
                return None, None
            self.buf += d

    def step(self):
        first, body = self.read_packet()
        if first is None:
            return
        ptype = first >> 4
        if ptype == 3:
            qos = (first >> 1) & 3
            (n,) = struct.unpack(">H", body[:2])
            topic, pos, pid = body[2:2 + n], 2 + n, None
            assert qos in (0, 1), f"message delivered with QoS {qos}"
            if qos:
                (pid,) = struct.unpack(">H", body[pos:pos + 2])
                assert pid != 0
                pos += 2
            self.msgs.append({"topic": topic, "payload": body[pos:], "qos": qos, "retain": first & 1,
                              "dup": (first >> 3) & 1, "pid": pid})
            if qos and self.auto_ack:
                self.sock.sendall(packet(0x40, struct.pack(">H", pid)))
        elif ptype == 4:
            self.acks.append(struct.unpack(">H", body)[0])
        elif ptype == 9:
            self.subacks[struct.unpack(">H", body[:2])[0]] = list(body[2:])
        elif ptype == 11:
            self.unsubacks.append(struct.unpack(">H", body)[0])
        elif ptype == 13:
            self.pongs += 1
        else:
            raise AssertionError(f"unexpected packet type {ptype}")

    def wait(self, cond, what):
        while not cond():
            assert not self.eof, f"connection closed while waiting for {what}"
            self.step()

    def next_pid(self):
        self.pid = self.pid % 65535 + 1
        return self.pid

    def subscribe(self, pairs):
        pid = self.next_pid()
        body = struct.pack(">H", pid) + b"".join(mstr(f) + bytes([q]) for f, q in pairs)
        self.sock.sendall(packet(0x82, body))
        self.wait(lambda: pid in self.subacks, "SUBACK")
        return self.subacks[pid]

    def unsubscribe(self, filters):
        pid = self.next_pid()
        self.sock.sendall(packet(0xA2, struct.pack(">H", pid) + b"".join(mstr(f) for f in filters)))
        self.wait(lambda: pid in self.unsubacks, "UNSUBACK")

    def publish(self, topic, payload, qos=0, retain=False, wait=True):
        if qos:
            pid = self.next_pid()
            self.sock.sendall(packet(0x32 | retain, mstr(topic) + struct.pack(">H", pid) + payload))
            if wait:
                self.wait(lambda: pid in self.acks, "PUBACK")
        else:
            self.sock.sendall(packet(0x30 | retain, mstr(topic) + payload))

    def barrier(self):
        before = self.pongs
        self.sock.sendall(packet(0xC0))
        self.wait(lambda: self.pongs > before, "PINGRESP")

    def take(self):
        self.barrier()
        out, self.msgs = self.msgs, []
        return out

    def disconnect(self):
        self.sock.sendall(packet(0xE0))
        self.sock.close()

    def drop(self):
        self.sock.close()


def closed_by_server(sock):
    sock.settimeout(TIMEOUT)
    try:
        while True:
            d = sock.recv(65536)
            if not d:
                return True
    except ConnectionResetError:
        return True


def plain(msgs, keys=("topic", "payload", "qos")):
    return [tuple(m[k] for k in keys) for m in msgs]


def test_connect_handshake_variants():
    c = Client(b"basic-1")
    assert c.present == 0
    c.barrier()
    c.disconnect()
    a = Client(b"", clean=True)  # the broker assigns an identifier
    b = Client(b"", clean=True, user=b"someone")
    a.subscribe([(b"anon/+", 1)])
    b.publish(b"anon/x", b"hello", 1)
    assert plain(a.take()) == [(b"anon/x", b"hello", 1)]
    for cl in (a, b):
        cl.disconnect()
    bad = Client(b"old-level", level=3, expect=1)
    assert closed_by_server(bad.sock)
    nocid = Client(b"", clean=False, expect=2)
    assert closed_by_server(nocid.sock)
    s = socket.create_connection(("127.0.0.1", PORT), timeout=TIMEOUT)
    s.sendall(packet(0xC0))  # the first packet must be CONNECT
    assert closed_by_server(s)


def test_wildcards_and_overlapping_subscriptions():
    rng = random.Random(8086)
    words = [b"plant", b"line", b"x", b"", b"temp", b"Temp", b"sensor", b"a+b"]
    topics = set()
    while len(topics) < 40:
        depth = rng.randrange(1, 5)
        topic = b"/".join(rng.choice(words[:-1]) for _ in range(depth))
        if topic:
            topics.add(topic)
    topics |= {b"$SYS/broker/load", b"$SYS/x", b"plant", b"plant/line", b"/plant", b"plant/"}
    topics = sorted(topics)
    subs = {}
    clients = {}
    for k in range(6):
        filters = {}
        for _ in range(rng.randrange(2, 6)):
            t = rng.choice(topics).split(b"/")
            for i in range(len(t)):
                r = rng.random()
                if r < 0.3:
                    t[i] = b"+"
                elif r < 0.4:
                    t = t[:i] + [b"#"]
                    break
            filters[b"/".join(t)] = rng.randrange(0, 2)
        if k == 0:
            filters.update({b"#": 0, b"plant/#": 1})
        if k == 1:
            filters.update({b"$SYS/#": 1, b"+/broker/+": 0, b"plant/+": 0, b"+/+": 1})
        cid = b"wild-%d" % k
        clients[cid] = Client(cid)
        granted = clients[cid].subscribe(list(filters.items()))
        assert granted == list(filters.values())
        subs[cid] = filters
    pub = Client(b"wild-pub")
    sent = []
    for i in range(150):
        t, q = rng.choice(topics), rng.randrange(0, 2)
        payload = b"m%d-" % i + rng.randbytes(rng.randrange(0, 30))
        pub.publish(t, payload, q)
        sent.append((t, payload, q))
    pub.barrier()
    for cid, cl in clients.items():
        expected = []
        for t, p, q in sent:
            granted = [g for f, g in subs[cid].items() if matches(f, t)]
            if granted:
                expected.append((t, p, min(q, max(granted))))
        got = cl.take()
        assert plain(got) == expected, f"{cid.decode()} subscribed to {sorted(subs[cid])}"
        assert all(m["retain"] == 0 and m["dup"] == 0 for m in got)
        cl.disconnect()
    pub.disconnect()


def test_retained_messages():
    rng = random.Random(1883)
    pub = Client(b"ret-pub")
    current = {}
    names = [b"ret/%s/%d" % (rng.choice([b"a", b"b", b"c"]), i) for i in range(25)]
    for i in range(80):
        t = rng.choice(names)
        q = rng.randrange(0, 2)
        p = b"" if rng.random() < 0.2 else b"v%d" % i
        pub.publish(t, p, q, retain=True)
        if p:
            current[t] = (p, q)
        else:
            current.pop(t, None)
    pub.publish(b"ret/a/not-kept", b"plain", 1, retain=False)
    pub.barrier()
    sub = Client(b"ret-sub")
    filters = [(b"ret/a/+", 1), (b"ret/#", 0), (b"ret/+/1", 1)]
    granted = sub.subscribe(filters)
    assert granted == [1, 0, 1]
    expected = []
    for f, g in filters:
        for t in sorted(current):
            if matches(f, t):
                expected.append((t, current[t][0], min(g, current[t][1]), 1))
    got = sub.take()
    assert plain(got, ("topic", "payload", "qos", "retain")) == expected
    live_topic = sorted(current)[0]
    pub.publish(live_topic, b"live", 1, retain=True)
    got = sub.take()
    assert [m["retain"] for m in got] == [0] * len(got) and len(got) >= 1, \
        "messages for established subscriptions are delivered with RETAIN 0"
    late = Client(b"ret-late")
    late.subscribe([(live_topic, 1)])
    assert plain(late.take(), ("topic", "payload", "retain")) == [(live_topic, b"live", 1)]
    for cl in (pub, sub, late):
        cl.disconnect()


def test_persistent_session_keeps_subscriptions_and_queues_qos1():
    rng = random.Random(42)
    p = Client(b"persist-1", clean=False)
    assert p.present == 0
    assert p.subscribe([(b"jobs/+", 1), (b"log/#", 0), (b"low/+", 0)]) == [1, 0, 0]
    p.disconnect()
    pub = Client(b"persist-pub")
    expected = []
    for i in range(30):
        kind = rng.choice([b"jobs/j%d" % rng.randrange(5), b"log/info", b"low/x"])
        q = rng.randrange(0, 2)
        payload = b"%d" % i
        pub.publish(kind, payload, q)
        if kind.startswith(b"jobs/") and q == 1:
            expected.append((kind, payload, 1))
    pub.barrier()
    p = Client(b"persist-1", clean=False)
    assert p.present == 1, "the session must be resumed"
    got = p.take()
    assert plain(got) == expected, "QoS 1 messages stored while offline are delivered in order, QoS 0 ones are not"
    assert len({m["pid"] for m in got}) == len(got)
    pub.publish(b"low/y", b"still", 0)
    pub.barrier()
    assert plain(p.take()) == [(b"low/y", b"still", 0)], "subscriptions survive in a persistent session"
    p.disconnect()
    p = Client(b"persist-1", clean=True)
    assert p.present == 0
    pub.publish(b"jobs/j1", b"gone", 1)
    assert p.take() == [], "a clean session starts without the old subscriptions"
    p.disconnect()
    p = Client(b"persist-1", clean=False)
    assert p.present == 0, "a clean session is not kept after it ends"
    p.disconnect()
    pub.disconnect()


def test_unacknowledged_messages_are_resent_with_dup():
    r = Client(b"redeliver", clean=False, auto_ack=False, will=(b"gone/redeliver", b"dropped", 0, False))
    r.subscribe([(b"work/#", 1)])
    pub = Client(b"redeliver-pub")
    pub.subscribe([(b"gone/#", 0)])
    for i in range(6):
        pub.publish(b"work/%d" % i, b"job-%d" % i, 1)
    got = r.take()
    assert [m["payload"] for m in got] == [b"job-%d" % i for i in range(6)]
    for m in got[:2]:
        r.sock.sendall(packet(0x40, struct.pack(">H", m["pid"])))
    r.barrier()
    r.drop()  # no DISCONNECT, no more acknowledgements
    # its will shows that the broker has seen the connection end: what follows arrives while the session is offline
    pub.wait(lambda: any(m["topic"] == b"gone/redeliver" for m in pub.msgs), "the will of the dropped connection")
    for i in range(6, 8):
        pub.publish(b"work/%d" % i, b"job-%d" % i, 1)
    r2 = Client(b"redeliver", clean=False, auto_ack=False)
    assert r2.present == 1
    again = r2.take()
    assert [(m["payload"], m["dup"], m["pid"]) for m in again[:4]] == \
        [(m["payload"], 1, m["pid"]) for m in got[2:]], "unacknowledged messages first, same ids, DUP set"
    assert [(m["payload"], m["dup"]) for m in again[4:]] == [(b"job-6", 0), (b"job-7", 0)]
    for m in again:
        r2.sock.sendall(packet(0x40, struct.pack(">H", m["pid"])))
    r2.barrier()  # the acknowledgements have been handled before the next connection of this client id
    r2.disconnect()
    r3 = Client(b"redeliver", clean=False)
    assert r3.take() == [], "acknowledged messages are not sent again"
    r3.disconnect()
    pub.disconnect()


def test_will_messages_and_session_takeover():
    watch = Client(b"watcher")
    watch.subscribe([(b"status/#", 1)])
    w = Client(b"dev-1", will=(b"status/dev-1", b"offline", 1, True))
    w.barrier()
    w.drop()  # the connection is lost without DISCONNECT: the will is published
    watch.wait(lambda: len(watch.msgs) >= 1, "the will message")
    assert plain(watch.take()) == [(b"status/dev-1", b"offline", 1)]
    late = Client(b"late-watcher")
    late.subscribe([(b"status/+", 1)])
    assert plain(late.take(), ("topic", "payload", "retain")) == [(b"status/dev-1", b"offline", 1)]
    g = Client(b"dev-2", will=(b"status/dev-2", b"offline", 0, False))
    g.disconnect()  # a clean DISCONNECT discards the will
    t1 = Client(b"dev-3", will=(b"status/dev-3", b"offline", 1, False))
    t1.subscribe([(b"cmd/dev-3", 1)])
    t2 = Client(b"dev-3", clean=False, will=(b"status/dev-3", b"lost", 1, False))
    assert closed_by_server(t1.sock), "the older connection with the same client id is closed"
    assert t2.present == 0
    t2.subscribe([(b"cmd/dev-3", 1)])
    watch.publish(b"cmd/dev-3", b"reboot", 1)
    assert plain(t2.take()) == [(b"cmd/dev-3", b"reboot", 1)]
    watch.barrier()
    assert watch.take() == [], "neither a DISCONNECT nor a takeover publishes the will"
    t2.drop()
    watch.wait(lambda: len(watch.msgs) >= 1, "the will of the second connection")
    assert plain(watch.take()) == [(b"status/dev-3", b"lost", 1)]
    for cl in (watch, late):
        cl.disconnect()


def test_split_coalesced_and_large_packets():
    rng = random.Random(7)
    sub = Client(b"big-sub")
    sub.subscribe([(b"big/#", 1)])
    pub = Client(b"big-pub")
    msgs = [(b"big/%d" % i, rng.randbytes(n), i % 2) for i, n in enumerate([0, 1, 127, 128, 16383, 16384, 300000, 2200000])]
    stream = b""
    pid = 100
    for t, p, q in msgs:
        if q:
            stream += packet(0x32, mstr(t) + struct.pack(">H", pid) + p)
            pid += 1
        else:
            stream += packet(0x30, mstr(t) + p)
    stream += packet(0xC0)
    pos = 0
    while pos < len(stream):  # arbitrary splits, several packets per write and packets cut mid-header
        n = rng.choice([1, 2, 3, 7, 100, 5000, 70000])
        pub.sock.sendall(stream[pos:pos + n])
        pos += n
    pub.wait(lambda: pub.pongs == 1, "PINGRESP")
    assert sorted(pub.acks) == list(range(100, pid))
    got = sub.take()
    assert plain(got) == msgs
    pub.disconnect()
    sub.disconnect()


def test_subscribe_rules_unsubscribe_and_violations():
    c = Client(b"rules")
    granted = c.subscribe([(b"a/#/b", 0), (b"a+/b", 1), (b"ok/+/x", 2), (b"", 0), (b"sport#", 0), (b"ok/#", 0)])
    assert granted == [0x80, 0x80, 1, 0x80, 0x80, 0]
    c.publish(b"ok/1/x", b"p", 1)
    assert plain(c.take()) == [(b"ok/1/x", b"p", 1)], "own messages come back; one copy at the highest QoS"
    c.subscribe([(b"ok/+/x", 0)])  # same filter again: replaces the QoS
    c.publish(b"ok/1/x", b"q", 1)
    assert plain(c.take()) == [(b"ok/1/x", b"q", 0)]
    c.unsubscribe([b"ok/+/x", b"never/subscribed"])
    c.publish(b"ok/1/x", b"r", 1)
    c.publish(b"ok", b"parent", 1)
    assert plain(c.take()) == [(b"ok/1/x", b"r", 0), (b"ok", b"parent", 0)], "'ok/#' also matches 'ok'"
    c.unsubscribe([b"ok/#"])
    c.publish(b"ok/2/x", b"s", 1)
    assert c.take() == []
    c.disconnect()
    v = Client(b"violator-1")
    v.sock.sendall(packet(0x80, struct.pack(">H", 1) + mstr(b"x/y") + b"\x00"))  # SUBSCRIBE needs flags 0x2
    assert closed_by_server(v.sock)
    v = Client(b"violator-2")
    v.sock.sendall(packet(0x30, mstr(b"x/+") + b"wild"))  # no wildcards in topic names
    assert closed_by_server(v.sock)
