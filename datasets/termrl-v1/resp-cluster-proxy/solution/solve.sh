#!/bin/bash
set -euo pipefail
mkdir -p /app/rproxy
cat > /app/rproxy/proxy.py <<'PY'
"""Cluster-aware RESP proxy: hash slots with tags, MOVED (update the map) and ASK (one-shot ASKING) redirects."""
import os
import socket
import threading

PORT = int(os.environ.get("PROXY_PORT", "7000"))
SEEDS = [a.strip() for a in os.environ.get("CLUSTER_NODES", "127.0.0.1:7001").split(",") if a.strip()]
SLOTS = [None] * 16384
MAP_LOCK = threading.Lock()
MULTI = {b"MGET": b"GET", b"DEL": b"DEL", b"EXISTS": b"EXISTS"}


class Error(Exception):
    pass


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

    def exact(self, n):
        while len(self.buf) < n + 2:
            self.fill()
        out, self.buf = self.buf[:n], self.buf[n + 2:]
        return out

    def value(self):
        line = self.line()
        t, rest = line[:1], line[1:]
        if t in (b"+", b"-"):
            return (t, rest)
        if t == b":":
            return (t, int(rest))
        if t == b"$":
            n = int(rest)
            return (t, None if n < 0 else self.exact(n))
        if t == b"*":
            n = int(rest)
            return (t, None if n < 0 else [self.value() for _ in range(n)])
        raise Error("protocol error")


def encode(v):
    t, x = v
    if t in (b"+", b"-"):
        return t + x + b"\r\n"
    if t == b":":
        return b":%d\r\n" % x
    if t == b"$":
        return b"$-1\r\n" if x is None else b"$%d\r\n%s\r\n" % (len(x), x)
    if x is None:
        return b"*-1\r\n"
    return b"*%d\r\n" % len(x) + b"".join(encode(i) for i in x)


def command(args):
    return b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in args)


class Node:
    def __init__(self, addr):
        host, port = addr.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)))
        self.reader = Reader(self.sock)

    def call(self, args):
        self.sock.sendall(command(args))
        return self.reader.value()


def refresh(nodes):
    for addr in list(nodes) + SEEDS:
        try:
            reply = get_node(nodes, addr).call([b"CLUSTER", b"SLOTS"])
        except OSError:
            continue
        if reply[0] != b"*":
            continue
        with MAP_LOCK:
            for entry in reply[1]:
                start, end, master = entry[1][0][1], entry[1][1][1], entry[1][2][1]
                addr2 = "%s:%d" % (master[0][1].decode(), master[1][1])
                for s in range(start, end + 1):
                    SLOTS[s] = addr2
        return


def get_node(nodes, addr):
    if addr not in nodes:
        nodes[addr] = Node(addr)
    return nodes[addr]


def forward(nodes, args):
    slot = key_slot(args[1])
    if SLOTS[slot] is None:
        refresh(nodes)
    addr, asking = SLOTS[slot], False
    for _ in range(16):
        if addr is None:
            return (b"-", b"CLUSTERDOWN Hash slot not served")
        node = get_node(nodes, addr)
        if asking:
            node.call([b"ASKING"])
        reply = node.call(args)
        asking = False
        if reply[0] == b"-":
            parts = reply[1].split()
            if parts and parts[0] in (b"MOVED", b"ASK") and len(parts) == 3:
                target = parts[2].decode()
                if parts[0] == b"MOVED":
                    with MAP_LOCK:
                        SLOTS[int(parts[1])] = target
                else:
                    asking = True
                addr = target
                continue
        return reply
    return reply


def execute(nodes, args):
    if not args:
        return (b"-", b"ERR empty command")
    cmd = args[0].upper()
    if cmd == b"PING":
        return (b"+", b"PONG")
    if cmd in MULTI:
        if len(args) < 2:
            return (b"-", b"ERR wrong number of arguments for '%s' command" % args[0].lower())
        replies = [forward(nodes, [MULTI[cmd], k]) for k in args[1:]]
        for r in replies:
            if r[0] == b"-":
                return r
        if cmd == b"MGET":
            return (b"*", replies)
        return (b":", sum(r[1] for r in replies))
    if len(args) < 2:
        return (b"-", b"ERR unsupported command '%s'" % args[0].lower())
    return forward(nodes, args)


def serve(conn):
    nodes = {}
    reader = Reader(conn)
    try:
        while True:
            v = reader.value()
            if v[0] != b"*" or not v[1] or any(a[0] != b"$" or a[1] is None for a in v[1]):
                conn.sendall(b"-ERR Protocol error\r\n")
                return
            conn.sendall(encode(execute(nodes, [a[1] for a in v[1]])))
    except (EOFError, OSError, Error, ValueError):
        pass
    finally:
        conn.close()
        for n in nodes.values():
            n.sock.close()


def main():
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", PORT))
    srv.listen(128)
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


main()
PY
cat > /app/rproxy/run.sh <<'SH'
#!/bin/bash
exec python3 /app/rproxy/proxy.py
SH
chmod +x /app/rproxy/run.sh
