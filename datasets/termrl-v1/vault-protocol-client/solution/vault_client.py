#!/usr/bin/env python3
"""Client for vaultd (protocol reconstructed from the binary)."""
import argparse
import socket
import struct
import sys

M = 0xFFFFFFFF


def _table():
    t = []
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x8BB7) if c & 0x8000 else c << 1
            c &= 0xFFFF
        t.append(c)
    return t


TAB = _table()


def chk(c, data):
    for b in data:
        c = ((c << 8) & 0xFFFF) ^ TAB[((c >> 8) ^ b) & 0xFF]
    return c


class Keystream:
    def __init__(self, seed):
        self.x = seed & M

    def apply(self, data):
        out = bytearray(len(data))
        x = self.x
        for i, b in enumerate(data):
            x ^= (x << 13) & M
            x ^= x >> 17
            x ^= (x << 5) & M
            out[i] = b ^ ((x >> 8) & 0xFF)
        self.x = x
        return bytes(out)


def rotl(v, r):
    return ((v << r) | (v >> (32 - r))) & M


def digest(nonce, rounds, user, pw):
    buf = nonce + pw + b"\0" + user
    h = [0x243F6A88 ^ len(buf), 0x85A308D3, 0x13198A2E, 0x03707344]
    for r in range(rounds):
        for i, b in enumerate(buf):
            j = (i + r) & 3
            h[j] = (rotl(h[j] ^ b, 5) * 0x9E3779B1 + h[(j + 1) & 3]) & M
        h[0] ^= h[3] >> 7
        h[2] = (h[2] + (h[1] << 3)) & M
    return h


class VaultError(Exception):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code


class Conn:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.seq = 0
        self.ks_out = self.ks_in = None

    def _read(self, n):
        buf = b""
        while len(buf) < n:
            b = self.s.recv(n - len(buf))
            if not b:
                raise VaultError(1, "connection closed")
            buf += b
        return buf

    def send(self, typ, payload=b""):
        assert len(payload) <= 4096
        hdr = struct.pack("<BBH", typ, self.seq, len(payload))
        k = chk(chk(0x1D0F, hdr), payload)
        body = self.ks_out.apply(payload) if self.ks_out else payload
        self.s.sendall(b"VK" + hdr + body + struct.pack(">H", k))
        self.seq = (self.seq + 1) & 0xFF

    def recv(self):
        hdr = self._read(6)
        if hdr[:2] != b"VK":
            raise VaultError(1, "bad magic")
        typ, _seq, n = struct.unpack("<BBH", hdr[2:])
        body = self._read(n)
        (k,) = struct.unpack(">H", self._read(2))
        if self.ks_in:
            body = self.ks_in.apply(body)
        if chk(chk(0x1D0F, hdr[2:]), body) != k:
            raise VaultError(1, "bad check")
        if typ == 0x7F:
            raise VaultError(body[0], body[1:].decode(errors="replace"))
        return typ, body

    def login(self, user, pw):
        u = user.encode()
        self.send(0x01, bytes([3, len(u)]) + u)
        typ, ch = self.recv()
        h = digest(ch[:8], ch[8], u, pw.encode())
        self.send(0x03, struct.pack("<4I", *h))
        typ, _ = self.recv()
        if typ != 0x04:
            raise VaultError(1, "unexpected reply")
        self.ks_out = Keystream(h[1] | 1)
        self.ks_in = Keystream(h[3] | 1)

    def list(self):
        names = []
        while True:
            typ, body = self.recv()
            i = 0
            while i < len(body):
                n = body[i]
                names.append(body[i + 1:i + 1 + n].decode("utf-8", "surrogateescape"))
                i += 1 + n
            if typ == 0x12:
                return names

    def get(self, name):
        self.send(0x20, name.encode("utf-8", "surrogateescape"))
        data = []
        while True:
            typ, body = self.recv()
            data.append(body)
            if typ == 0x22:
                return b"".join(data)

    def put(self, name, data):
        self.send(0x30, struct.pack("<I", len(data)) + name.encode("utf-8", "surrogateescape"))
        self.recv()
        chunks = [data[i:i + 4096] for i in range(0, len(data), 4096)] or [b""]
        for i, c in enumerate(chunks):
            self.send(0x32 if i == len(chunks) - 1 else 0x31, c)
        typ, body = self.recv()
        if typ != 0x04 or struct.unpack("<I", body)[0] != len(data):
            raise VaultError(1, "upload not confirmed")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=7077)
    ap.add_argument("--user", required=True)
    ap.add_argument("--password", required=True)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    g = sub.add_parser("get")
    g.add_argument("name")
    g.add_argument("dest")
    p = sub.add_parser("put")
    p.add_argument("src")
    p.add_argument("name")
    a = ap.parse_args()
    try:
        c = Conn(a.port)
        try:
            c.login(a.user, a.password)
        except VaultError as e:
            print(f"authentication refused: {e}", file=sys.stderr)
            return 2
        if a.cmd == "list":
            c.send(0x10)
            for n in c.list():
                print(n)
        elif a.cmd == "get":
            data = c.get(a.name)
            with open(a.dest, "wb") as f:
                f.write(data)
        else:
            c.put(a.name, open(a.src, "rb").read())
        c.send(0x0F)
        return 0
    except VaultError as e:
        print(f"vault error {e.code}: {e}", file=sys.stderr)
        return 3 if e.code == 2 else 1
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
