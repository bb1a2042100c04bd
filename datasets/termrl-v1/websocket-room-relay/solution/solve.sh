#!/bin/bash
set -euo pipefail
mkdir -p /app/wsrooms
cat > /app/wsrooms/server.py <<'PY'
"""WebSocket (RFC 6455) relay with rooms."""
import base64
import binascii
import hashlib
import os
import re
import socket
import socketserver
import struct
import threading

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
LIMIT = 1 << 20
ROOMS, ROOMS_LOCK = {}, threading.Lock()
PATH = re.compile(r"/rooms/([a-z0-9-]{1,32})\Z")


class Closing(Exception):
    def __init__(self, code):
        self.code = code


def frame(opcode, payload):
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 127, n)
    return head + payload


class Client(socketserver.BaseRequestHandler):
    def setup(self):
        self.wlock = threading.Lock()
        self.buf = b""
        self.room = None

    def recv_exact(self, n):
        while len(self.buf) < n:
            chunk = self.request.recv(65536)
            if not chunk:
                raise ConnectionError("eof")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def send(self, data):
        with self.wlock:
            self.request.sendall(data)

    def http(self, status, extra=""):
        self.request.sendall(f"HTTP/1.1 {status}\r\n{extra}Content-Length: 0\r\nConnection: close\r\n\r\n".encode())

    def handshake(self):
        while b"\r\n\r\n" not in self.buf:
            chunk = self.request.recv(4096)
            if not chunk or len(self.buf) > 65536:
                return None
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        headers = {}
        for line in lines[1:]:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        m = PATH.match(parts[1]) if len(parts) == 3 and parts[0] == "GET" else None
        if not m:
            self.http("404 Not Found")
            return None
        key = headers.get("sec-websocket-key", "")
        try:
            ok_key = len(base64.b64decode(key, validate=True)) == 16
        except (binascii.Error, ValueError):
            ok_key = False
        conn = [t.strip().lower() for t in headers.get("connection", "").split(",")]
        if headers.get("upgrade", "").lower() != "websocket" or "upgrade" not in conn or not ok_key:
            self.http("400 Bad Request")
            return None
        if headers.get("sec-websocket-version") != "13":
            self.http("426 Upgrade Required", "Sec-WebSocket-Version: 13\r\n")
            return None
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        room = m.group(1)
        with ROOMS_LOCK:
            members = ROOMS.setdefault(room, [threading.Lock(), set()])
            members[1].add(self)
            self.room = room
            self.request.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                  f"Sec-WebSocket-Accept: {accept}\r\n\r\n").encode())
        return room

    def handle(self):
        try:
            if self.handshake() is None:
                return
            self.loop()
        except Closing as e:
            try:
                self.send(frame(8, struct.pack("!H", e.code)))
            except OSError:
                pass
        except (ConnectionError, OSError):
            pass

    def finish(self):
        if self.room is not None:
            with ROOMS_LOCK:
                ROOMS[self.room][1].discard(self)
        try:
            self.request.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def loop(self):
        message, kind = None, None
        while True:
            b0, b1 = self.recv_exact(2)
            fin, rsv, opcode = b0 & 0x80, b0 & 0x70, b0 & 0x0F
            masked, n = b1 & 0x80, b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self.recv_exact(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self.recv_exact(8))[0]
            if rsv or not masked or opcode not in (0, 1, 2, 8, 9, 10):
                raise Closing(1002)
            if opcode >= 8 and (not fin or n > 125):
                raise Closing(1002)
            if opcode == 0 and message is None or opcode in (1, 2) and message is not None:
                raise Closing(1002)
            if opcode < 8 and (len(message or b"") + n > LIMIT):
                raise Closing(1009)
            mask = self.recv_exact(4)
            data = bytes(b ^ mask[i % 4] for i, b in enumerate(self.recv_exact(n))) if n else b""
            if opcode == 9:
                self.send(frame(10, data))
            elif opcode == 10:
                pass
            elif opcode == 8:
                if len(data) == 1:
                    raise Closing(1002)
                self.send(frame(8, data[:2]))
                return
            else:
                if opcode:
                    message, kind = data, opcode
                else:
                    message += data
                if fin:
                    msg, k = message, kind
                    message = kind = None
                    if k == 2:
                        raise Closing(1003)
                    try:
                        text = msg.decode("utf-8")
                    except UnicodeDecodeError:
                        raise Closing(1007)
                    self.deliver(text, msg)

    def deliver(self, text, raw):
        lock, members = ROOMS[self.room]
        if text == "/count":
            with ROOMS_LOCK:
                n = len(members)
            self.send(frame(1, f"members: {n}".encode()))
            return
        out = frame(1, raw)
        with lock:
            with ROOMS_LOCK:
                others = [m for m in members if m is not self]
            for m in others:
                try:
                    m.send(out)
                except OSError:
                    pass


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    Server(("127.0.0.1", int(os.environ.get("WS_PORT", "8765"))), Client).serve_forever()
PY
cat > /app/wsrooms/run.sh <<'SH'
#!/bin/bash
exec python3 /app/wsrooms/server.py
SH
chmod +x /app/wsrooms/run.sh
