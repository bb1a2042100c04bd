#!/bin/bash
set -euo pipefail
mkdir -p /app/pooler
cat > /app/pooler/pooler.py <<'PY'
"""Transaction-level connection pooler for the PostgreSQL v3 protocol (simple query protocol only)."""
import hashlib
import os
import socket
import struct
import threading
from collections import deque

PORT = int(os.environ.get("POOLER_PORT", "6432"))
PG_HOST = os.environ.get("PG_HOST", "127.0.0.1")
PG_PORT = int(os.environ.get("PG_PORT", "5432"))
POOL_SIZE = int(os.environ.get("POOL_SIZE", "2"))
USERS_FILE = os.environ.get("POOL_USERS", "/etc/pooler/users.txt")


def load_users():
    users = {}
    for line in open(USERS_FILE, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            u, p = line.split(None, 1)
            users[u] = p
    return users


USERS = load_users()


def md5_password(user, password, salt):
    inner = hashlib.md5((password + user).encode()).hexdigest()
    return "md5" + hashlib.md5(inner.encode() + salt).hexdigest()


def msg(t, body=b""):
    return t + struct.pack(">I", len(body) + 4) + body


def error(code, text, severity=b"FATAL"):
    return msg(b"E", b"S" + severity + b"\0C" + code + b"\0M" + text + b"\0\0")


class Stream:
    def __init__(self, sock):
        self.sock, self.buf = sock, b""

    def exact(self, n):
        while len(self.buf) < n:
            d = self.sock.recv(65536)
            if not d:
                raise EOFError
            self.buf += d
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def message(self):
        t = self.exact(1)
        (n,) = struct.unpack(">I", self.exact(4))
        return t, self.exact(n - 4)


class Backend:
    def __init__(self, user, database):
        self.sock = socket.create_connection((PG_HOST, PG_PORT))
        self.stream = Stream(self.sock)
        params = b"user\0" + user.encode() + b"\0database\0" + database.encode() + b"\0\0"
        self.sock.sendall(struct.pack(">II", len(params) + 8, 196608) + params)
        while True:
            t, body = self.stream.message()
            if t == b"R":
                (kind,) = struct.unpack(">I", body[:4])
                if kind == 5:
                    pw = md5_password(user, USERS[user], body[4:8])
                    self.sock.sendall(msg(b"p", pw.encode() + b"\0"))
                elif kind != 0:
                    raise OSError("unsupported authentication")
            elif t == b"E":
                raise OSError("backend refused")
            elif t == b"Z":
                return


class Pool:
    def __init__(self):
        self.lock = threading.Condition()
        self.idle, self.count, self.waiting = {}, {}, {}

    def acquire(self, key):
        with self.lock:
            q = self.waiting.setdefault(key, deque())
            me = object()
            q.append(me)
            while True:
                if q[0] is me:
                    if self.idle.get(key):
                        q.popleft()
                        self.lock.notify_all()
                        return self.idle[key].pop()
                    if self.count.get(key, 0) < POOL_SIZE:
                        self.count[key] = self.count.get(key, 0) + 1
                        q.popleft()
                        self.lock.notify_all()
                        break
                self.lock.wait()
        try:
            return Backend(*key)
        except (OSError, EOFError):
            with self.lock:
                self.count[key] -= 1
                self.lock.notify_all()
            raise

    def release(self, key, backend):
        with self.lock:
            self.idle.setdefault(key, []).append(backend)
            self.lock.notify_all()

    def discard(self, key):
        with self.lock:
            self.count[key] -= 1
            self.lock.notify_all()


POOL = Pool()


def relay(backend, client_sock):
    """Forward backend messages to the client until ReadyForQuery; return its status byte."""
    out = b""
    while True:
        t, body = backend.stream.message()
        out += msg(t, body)
        if len(out) > 65536:
            client_sock.sendall(out)
            out = b""
        if t == b"Z":
            client_sock.sendall(out)
            return body[:1]


def handshake(sock, stream):
    while True:
        (n,) = struct.unpack(">I", stream.exact(4))
        body = stream.exact(n - 4)
        (code,) = struct.unpack(">I", body[:4])
        if code == 80877103:  # SSLRequest
            sock.sendall(b"N")
            continue
        if code != 196608:
            return None
        items = body[4:].split(b"\0")
        params = dict(zip(items[0::2], items[1::2]))
        user = params.get(b"user", b"").decode()
        database = params.get(b"database", user.encode()).decode() or user
        salt = os.urandom(4)
        sock.sendall(msg(b"R", struct.pack(">I", 5) + salt))
        t, body = stream.message()
        if t != b"p" or user not in USERS or body.rstrip(b"\0").decode() != md5_password(user, USERS[user], salt):
            sock.sendall(error(b"28P01", b'password authentication failed for user "' + user.encode() + b'"'))
            return None
        sock.sendall(msg(b"R", struct.pack(">I", 0)) + msg(b"S", b"server_version\x0016.0\0")
                     + msg(b"K", struct.pack(">II", 4242, 1)) + msg(b"Z", b"I"))
        return user, database


def serve(sock):
    stream, key, backend = Stream(sock), None, None
    try:
        key = handshake(sock, stream)
        if key is None:
            return
        while True:
            t, body = stream.message()
            if t == b"X":
                return
            if t != b"Q":
                sock.sendall(error(b"0A000", b"only the simple query protocol is supported", b"ERROR") + msg(b"Z", b"I"))
                continue
            if backend is None:
                backend = POOL.acquire(key)
            try:
                backend.sock.sendall(msg(b"Q", body))
                status = relay(backend, sock)
            except (OSError, EOFError):
                POOL.discard(key)
                backend = None
                raise
            if status == b"I":
                POOL.release(key, backend)
                backend = None
    except (OSError, EOFError, struct.error, UnicodeDecodeError):
        pass
    finally:
        sock.close()
        if backend is not None:
            try:
                backend.sock.sendall(msg(b"Q", b"ROLLBACK\0"))
                while backend.stream.message()[0] != b"Z":
                    pass
                POOL.release(key, backend)
            except (OSError, EOFError):
                POOL.discard(key)


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
cat > /app/pooler/run.sh <<'SH'
#!/bin/bash
exec python3 /app/pooler/pooler.py
SH
chmod +x /app/pooler/run.sh
