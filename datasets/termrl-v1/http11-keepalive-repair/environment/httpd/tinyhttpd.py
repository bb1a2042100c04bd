"""tinyhttpd: a small HTTP/1.1 server for the build farm's artefact cache.

Run: python3 tinyhttpd.py  (port from $TINYHTTPD_PORT, default 8081; document root www/ next to this file;
store directory from $TINYHTTPD_STORE, default /var/lib/tinyhttpd).
"""
import hashlib
import json
import os
import socket
import threading
import urllib.parse

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "www")
STORE = os.environ.get("TINYHTTPD_STORE", "/var/lib/tinyhttpd")
REASONS = {200: "OK", 201: "Created", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
           411: "Length Required", 413: "Payload Too Large", 501: "Not Implemented"}
MAX_BODY = 8 * 1024 * 1024


class BadRequest(Exception):
    pass


class Conn:
    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def fill(self):
        data = self.sock.recv(4096)
        if not data:
            raise EOFError
        self.buf += data

    def readline(self):
        while b"\r\n" not in self.buf:
            if len(self.buf) > 65536:
                raise BadRequest("line too long")
            self.fill()
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def read(self, n):
        while len(self.buf) < n:
            self.fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out


class Request:
    def __init__(self, method, target, version, headers):
        self.method, self.target, self.version, self.headers = method, target, version, headers
        self.body = None


def read_request(conn):
    line = conn.readline()
    while line == b"":  # tolerate stray CRLF between requests
        line = conn.readline()
    parts = line.decode("latin-1").split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        raise BadRequest("bad request line")
    headers = {}
    while True:
        h = conn.readline()
        if h == b"":
            break
        name, sep, value = h.decode("latin-1").partition(":")
        if not sep:
            raise BadRequest("bad header")
        headers[name.strip()] = value.strip()
    return Request(parts[0], parts[1], parts[2], headers)


def read_body(conn, req):
    if req.headers.get("Transfer-Encoding", "").lower() == "chunked":
        body = b""
        while True:
            size = int(conn.readline().decode("latin-1").strip())
            if size == 0:
                break
            body += conn.read(size)
            conn.readline()
        conn.readline()
        return body
    if "Content-Length" in req.headers:
        n = int(req.headers["Content-Length"])
        if n > MAX_BODY:
            raise BadRequest("too large")
        return conn.read(n)
    return b""


def route(conn, req):
    path = urllib.parse.urlsplit(req.target).path
    if path == "/echo":
        if req.method != "POST":
            return 405, {}, b"method not allowed\n"
        body = read_body(conn, req)
        return 200, {"Content-Type": "application/octet-stream", "X-Body-SHA256": hashlib.sha256(body).hexdigest()}, body
    if path.startswith("/store/"):
        key = path[len("/store/"):]
        if not key or "/" in key or key.startswith("."):
            return 404, {}, b"not found\n"
        p = os.path.join(STORE, key)
        if req.method == "PUT":
            body = read_body(conn, req)
            os.makedirs(STORE, exist_ok=True)
            with open(p, "wb") as f:
                f.write(body)
            return 201, {}, b"stored\n"
        if req.method in ("GET", "HEAD"):
            if not os.path.isfile(p):
                return 404, {}, b"not found\n"
            return 200, {"Content-Type": "application/octet-stream"}, open(p, "rb").read()
        return 405, {}, b"method not allowed\n"
    if path == "/status":
        info = {"server": "tinyhttpd", "store": sorted(os.listdir(STORE)) if os.path.isdir(STORE) else []}
        return 200, {"Content-Type": "application/json"}, json.dumps(info)
    if req.method not in ("GET", "HEAD"):
        return 405, {}, b"method not allowed\n"
    rel = urllib.parse.unquote(path).lstrip("/") or "index.html"
    p = os.path.realpath(os.path.join(ROOT, rel))
    if not p.startswith(ROOT + os.sep) or not os.path.isfile(p):
        return 404, {}, b"not found\n"
    ctype = "text/html; charset=utf-8" if p.endswith(".html") else "text/plain; charset=utf-8"
    return 200, {"Content-Type": ctype}, open(p, encoding="utf-8").read()


def respond(conn, req, status, headers, body, keep):
    head = [f"HTTP/1.1 {status} {REASONS[status]}", "Server: tinyhttpd"]
    for k, v in headers.items():
        head.append(f"{k}: {v}")
    head.append(f"Content-Length: {len(body)}")
    if not keep:
        head.append("Connection: close")
    if isinstance(body, str):
        body = body.encode("utf-8")
    conn.sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)


def serve(sock):
    conn = Conn(sock)
    try:
        while True:
            try:
                req = read_request(conn)
            except EOFError:
                return
            except BadRequest:
                respond(conn, None, 400, {}, b"bad request\n", False)
                return
            keep = req.headers.get("Connection", "").lower() != "close"
            try:
                status, headers, body = route(conn, req)
            except BadRequest:
                respond(conn, req, 400, {}, b"bad request\n", False)
                return
            respond(conn, req, status, headers, body, keep)
            if not keep:
                return
    except (OSError, EOFError):
        pass
    finally:
        sock.close()


def main():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", int(os.environ.get("TINYHTTPD_PORT", "8081"))))
    s.listen(64)
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(c,), daemon=True).start()


if __name__ == "__main__":
    main()
