"""A small Redis-Cluster-like set of nodes runs inside the tests; keys, workloads and slot migrations are generated here."""
import os
import random
import signal
import socket
import subprocess
import threading
import time

import pytest

TIMEOUT = 120  # hang guard for socket reads only


def crc16(data):
    crc = 0
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def key_slot(key):
    s = key.find(b"{")
    if s >= 0:
        e = key.find(b"}", s + 1)
        if e > s + 1:
            key = key[s + 1:e]
    return crc16(key) % 16384


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Reader:
    def __init__(self, sock):
        self.sock, self.buf = sock, b""

    def fill(self):
        d = self.sock.recv(65536)
        if not d:
            raise EOFError
        self.buf += d

    def line(self):
        while b"\r\n" not in self.buf:
            self.fill()
        i = self.buf.index(b"\r\n")
        out, self.buf = self.buf[:i], self.buf[i + 2:]
        return out

    def value(self):
        line = self.line()
        t, rest = line[:1], line[1:]
        if t in (b"+", b"-"):
            return (t.decode(), rest)
        if t == b":":
            return (":", int(rest))
        if t == b"$":
            n = int(rest)
            if n < 0:
                return ("$", None)
            while len(self.buf) < n + 2:
                self.fill()
            out, self.buf = self.buf[:n], self.buf[n + 2:]
            return ("$", out)
        if t == b"*":
            n = int(rest)
            return ("*", None if n < 0 else [self.value() for _ in range(n)])
        raise AssertionError(f"not RESP: {line!r}")


def enc(v):
    t, x = v
    if t in "+-":
        return t.encode() + x + b"\r\n"
    if t == ":":
        return b":%d\r\n" % x
    if t == "$":
        return b"$-1\r\n" if x is None else b"$%d\r\n%s\r\n" % (len(x), x)
    return b"*%d\r\n" % len(x) + b"".join(enc(i) for i in x)


def command(*args):
    return b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in args)


class Cluster:
    def __init__(self):
        self.lock = threading.RLock()
        self.nodes = []
        self.owner = [None] * 16384
        self.migrating = {}
        self.moved, self.asked = {}, {}

    def add(self):
        n = ClusterNode(self, len(self.nodes))
        self.nodes.append(n)
        return n

    def slots_reply(self):
        out, start = [], 0
        for s in range(1, 16385):
            if s == 16384 or self.owner[s] is not self.owner[start]:
                n = self.owner[start]
                if n is not None:
                    out.append(("*", [(":", start), (":", s - 1),
                                      ("*", [("$", b"127.0.0.1"), (":", n.port), ("$", b"node-%d" % n.idx)])]))
                start = s
        return ("*", out)

    def reshard(self, slots, dst):
        with self.lock:
            for s in slots:
                src = self.owner[s]
                for k in [k for k in src.data if key_slot(k) == s]:
                    dst.data[k] = src.data.pop(k)
                self.owner[s] = dst


class ClusterNode:
    def __init__(self, cluster, idx):
        self.cluster, self.idx, self.data = cluster, idx, {}
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            conn, _ = self.sock.accept()
            threading.Thread(target=self.serve, args=(conn,), daemon=True).start()

    def serve(self, conn):
        r, state = Reader(conn), {"asking": False}
        try:
            while True:
                v = r.value()
                args = [a[1] for a in v[1]]
                conn.sendall(enc(self.handle(state, args)))
        except (EOFError, OSError):
            conn.close()

    def handle(self, state, args):
        c = self.cluster
        cmd = args[0].upper()
        with c.lock:
            asking, state["asking"] = state["asking"], False
            if cmd == b"ASKING":
                state["asking"] = True
                return ("+", b"OK")
            if cmd == b"PING":
                return ("+", b"PONG")
            if cmd == b"CLUSTER" and len(args) == 2 and args[1].upper() == b"SLOTS":
                return c.slots_reply()
            if cmd not in (b"GET", b"SET", b"INCR", b"APPEND", b"STRLEN", b"DEL", b"EXISTS", b"MGET"):
                return ("-", b"ERR unknown command '%s'" % args[0])
            keys = args[1:] if cmd in (b"DEL", b"EXISTS", b"MGET") else args[1:2]
            if not keys:
                return ("-", b"ERR wrong number of arguments")
            slots = {key_slot(k) for k in keys}
            if len(slots) > 1:
                return ("-", b"CROSSSLOT Keys in request don't hash to the same slot")
            slot = slots.pop()
            mig = c.migrating.get(slot)
            if c.owner[slot] is self:
                if mig and mig[0] is self:
                    missing = [k for k in keys if k not in self.data]
                    if missing and len(missing) == len(keys):
                        c.asked[slot] = c.asked.get(slot, 0) + 1
                        return ("-", b"ASK %d 127.0.0.1:%d" % (slot, mig[1].port))
                    if missing:
                        return ("-", b"TRYAGAIN Multiple keys request during rehashing of slot")
            elif not (mig and mig[1] is self and asking):
                c.moved[slot] = c.moved.get(slot, 0) + 1
                return ("-", b"MOVED %d 127.0.0.1:%d" % (slot, c.owner[slot].port))
            return self.execute(cmd, args, keys)

    def execute(self, cmd, args, keys):
        d = self.data
        if cmd == b"GET":
            return ("$", d.get(keys[0]))
        if cmd == b"SET":
            d[keys[0]] = args[2]
            return ("+", b"OK")
        if cmd == b"INCR":
            try:
                n = int(d.get(keys[0], b"0")) + 1
            except ValueError:
                return ("-", b"ERR value is not an integer or out of range")
            d[keys[0]] = b"%d" % n
            return (":", n)
        if cmd == b"APPEND":
            d[keys[0]] = d.get(keys[0], b"") + args[2]
            return (":", len(d[keys[0]]))
        if cmd == b"STRLEN":
            return (":", len(d.get(keys[0], b"")))
        if cmd == b"DEL":
            return (":", sum(1 for k in keys if d.pop(k, None) is not None))
        if cmd == b"EXISTS":
            return (":", sum(1 for k in keys if k in d))
        return ("*", [("$", d.get(k)) for k in keys])


class Model:
    def __init__(self):
        self.d = {}

    def apply(self, args):
        cmd, d = args[0], self.d
        if cmd == b"GET":
            return ("$", d.get(args[1]))
        if cmd == b"SET":
            d[args[1]] = args[2]
            return ("+", b"OK")
        if cmd == b"INCR":
            try:
                n = int(d.get(args[1], b"0")) + 1
            except ValueError:
                return ("-", b"ERR value is not an integer or out of range")
            d[args[1]] = b"%d" % n
            return (":", n)
        if cmd == b"APPEND":
            d[args[1]] = d.get(args[1], b"") + args[2]
            return (":", len(d[args[1]]))
        if cmd == b"STRLEN":
            return (":", len(d.get(args[1], b"")))
        if cmd == b"DEL":
            return (":", sum(1 for k in args[1:] if d.pop(k, None) is not None))
        if cmd == b"EXISTS":
            return (":", sum(1 for k in args[1:] if k in d))
        if cmd == b"MGET":
            return ("*", [("$", d.get(k)) for k in args[1:]])
        if cmd == b"PING":
            return ("+", b"PONG")
        raise AssertionError(cmd)


CLUSTER = Cluster()
MODEL = Model()
PORT = free_port()


@pytest.fixture(scope="module", autouse=True)
def proxy():
    a, b, c = CLUSTER.add(), CLUSTER.add(), CLUSTER.add()
    for s in range(16384):  # uneven ranges, not aligned to anything
        CLUSTER.owner[s] = a if s < 5000 else b if s < 11111 else c
    proc = subprocess.Popen(["bash", "/app/rproxy/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, PROXY_PORT=str(PORT), CLUSTER_NODES=f"127.0.0.1:{a.port}"),
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


class Client:
    def __init__(self, rng):
        self.rng = rng
        self.sock = socket.create_connection(("127.0.0.1", PORT), timeout=TIMEOUT)
        self.reader = Reader(self.sock)

    def pipeline(self, cmds):
        data = b"".join(command(*c) for c in cmds)
        sizes = []
        while sum(sizes) < len(data):  # arbitrary pieces, commands cut anywhere
            sizes.append(self.rng.choice([1, 7, 100, 4096, len(data)]))

        def send():  # in its own thread, so that replies are read while the pipeline is still being sent
            pos = 0
            for n in sizes:
                self.sock.sendall(data[pos:pos + n])
                pos += n

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        replies = [self.reader.value() for _ in cmds]
        sender.join()
        return replies

    def close(self):
        self.sock.close()


def workload(rng, keys, n):
    cmds = []
    for _ in range(n):
        r = rng.random()
        k = rng.choice(keys)
        if r < 0.25:
            cmds.append((b"SET", k, rng.choice([b"%d" % rng.randrange(1000), os.urandom(rng.randrange(0, 40)), b""])))
        elif r < 0.45:
            cmds.append((b"GET", k))
        elif r < 0.55:
            cmds.append((b"INCR", k))
        elif r < 0.62:
            cmds.append((b"APPEND", k, b"x" * rng.randrange(1, 5)))
        elif r < 0.67:
            cmds.append((b"STRLEN", k))
        elif r < 0.77:
            cmds.append((b"MGET",) + tuple(rng.choice(keys) for _ in range(rng.randrange(1, 8))))
        elif r < 0.85:
            cmds.append((b"DEL",) + tuple(rng.choice(keys) for _ in range(rng.randrange(1, 5))))
        elif r < 0.95:
            cmds.append((b"EXISTS",) + tuple(rng.choice(keys) for _ in range(rng.randrange(1, 5))))
        else:
            cmds.append((b"PING",))
    return cmds


def run_checked(client, cmds, what):
    got = client.pipeline(cmds)
    for i, (c, g) in enumerate(zip(cmds, got)):
        want = MODEL.apply(c)
        assert g == want, f"{what}: command {i} {c[0].decode()} {[x[:20] for x in c[1:4]]}: got {g!r}, expected {want!r}"


def where(key):
    return CLUSTER.owner[key_slot(key)]


def test_slot_function_reference_values():
    assert crc16(b"123456789") == 0x31C3
    assert key_slot(b"{user1000}.following") == key_slot(b"{user1000}.followers") == key_slot(b"user1000")
    assert key_slot(b"foo{}{bar}") == crc16(b"foo{}{bar}") % 16384


def test_pipelined_workload_without_redirects():
    rng = random.Random(1)
    keys = [b"k:%d" % i for i in range(60)] + [b"{user%d}.%s" % (i % 7, f) for i in range(30) for f in (b"a", b"b")]
    keys += [b"foo{}{bar}", b"{}x", b"a{b}c{d}", b"{", b"}{x}"]
    c = Client(rng)
    run_checked(c, workload(rng, keys, 600), "pipelined workload")
    c.close()
    for k, v in MODEL.d.items():
        assert where(k).data.get(k) == v, f"{k!r} is not stored on the node that owns its slot"
    assert sum(CLUSTER.moved.values()) == 0 and sum(CLUSTER.asked.values()) == 0, \
        "an unchanged cluster must not see redirects: load the slot map with CLUSTER SLOTS"


def test_resharding_is_learned_from_moved():
    rng = random.Random(2)
    a, b, c = CLUSTER.nodes
    moved_slots = list(range(4000, 5200)) + [11111, 11112]
    keys = [b"{r%d}:%d" % (i, j) for i in range(40) for j in range(3)]
    keys = [k for k in keys if key_slot(k) in set(moved_slots)] + [b"k:%d" % i for i in range(20)]
    assert len(keys) > 25
    client = Client(rng)
    run_checked(client, [(b"SET", k, b"v") for k in keys], "before resharding")
    CLUSTER.moved.clear()
    CLUSTER.reshard(moved_slots, c)
    CLUSTER.reshard(range(0, 100), b)
    run_checked(client, workload(rng, keys, 500), "after resharding")
    assert CLUSTER.moved, "the workload should have met the new owners"
    worst = max(CLUSTER.moved.values())
    assert worst <= 1, f"a slot answered MOVED {worst} times: the proxy must update its map from MOVED"
    client.close()


def test_ask_during_migration_is_not_cached():
    rng = random.Random(3)
    a, b, c = CLUSTER.nodes
    tag = b"mig7"
    slot = key_slot(tag)
    keys = [b"{mig7}:%d" % i for i in range(30)]
    client = Client(rng)
    run_checked(client, [(b"SET", k, b"orig-%s" % k) for k in keys[:20]], "before migration")
    src = CLUSTER.owner[slot]
    dst = b if src is not b else c
    CLUSTER.moved.clear()
    CLUSTER.asked.clear()
    with CLUSTER.lock:
        CLUSTER.migrating[slot] = (src, dst)
        for k in keys[:8]:
            dst.data[k] = src.data.pop(k)
    cmds = []
    for _ in range(200):
        k = rng.choice(keys)
        cmds.append(rng.choice([(b"GET", k), (b"SET", k, b"n%d" % rng.randrange(99)), (b"INCR", k), (b"STRLEN", k)]))
    expected_asks = 0
    for cmd in cmds:
        if cmd[1] not in src.data:
            expected_asks += 1
        run_checked(client, [cmd], "during migration")
    assert CLUSTER.moved.get(slot, 0) == 0, "ASK is a one-off redirect: it must not change the slot map"
    assert CLUSTER.asked.get(slot, 0) == expected_asks
    with CLUSTER.lock:
        for k in list(src.data):
            if key_slot(k) == slot:
                dst.data[k] = src.data.pop(k)
        del CLUSTER.migrating[slot]
        CLUSTER.owner[slot] = dst
    run_checked(client, [(b"MGET",) + tuple(keys), (b"EXISTS",) + tuple(keys)], "after migration")
    assert CLUSTER.moved.get(slot, 0) <= 1
    client.close()


def test_new_node_learned_from_redirect():
    rng = random.Random(4)
    d = CLUSTER.add()  # the proxy has never heard of this node
    keys = [b"new:%d" % i for i in range(120)]
    client = Client(rng)
    run_checked(client, [(b"SET", k, b"%d" % i) for i, k in enumerate(keys)], "before the new node")
    CLUSTER.reshard(range(9000, 16384), d)
    run_checked(client, workload(rng, keys, 300), "after moving slots to a new node")
    assert any(key_slot(k) >= 9000 for k in MODEL.d) and d.data, "the new node should hold data"
    client.close()


def test_errors_and_multi_key_semantics():
    rng = random.Random(5)
    client = Client(rng)
    keys = [b"m:%d" % i for i in range(50)]
    cmds = [(b"SET", k, b"word") for k in keys[:10]] + [(b"INCR", keys[0]), (b"INCR", b"m:counter")]
    cmds += [(b"MGET",) + tuple(rng.sample(keys, 20)), (b"DEL",) + tuple(rng.sample(keys, 15)) + (keys[1], keys[1]),
             (b"EXISTS", keys[2], keys[2], keys[3], b"m:missing")]
    run_checked(client, cmds, "errors and multi-key commands")
    got = client.pipeline([(b"GET",), (b"FLUSHALL",)])
    assert all(g[0] == "-" for g in got), f"malformed and unknown commands get an error reply, got {got!r}"
    assert client.pipeline([(b"PING",)]) == [("+", b"PONG")]
    client.close()


def test_concurrent_clients():
    errors = []
    lock = threading.Lock()

    def run(i):
        try:
            rng = random.Random(100 + i)
            keys = [b"c%d:{t%d}:%d" % (i, j % 9, j) for j in range(40)]
            client = Client(rng)
            for _ in range(4):
                cmds = workload(rng, keys, 150)
                got = client.pipeline(cmds)
                with lock:  # the keys of different clients do not overlap, so the model order per client is enough
                    for c, g in zip(cmds, got):
                        want = MODEL.apply(c)
                        assert g == want, f"client {i}: {c[0]!r}: got {g!r}, expected {want!r}"
            client.close()
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
