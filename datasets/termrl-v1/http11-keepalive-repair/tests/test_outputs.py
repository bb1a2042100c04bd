"""The server is started here on its own port and store; requests and bodies are generated here."""
import hashlib
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import tempfile
import time

import pytest

RNG = random.Random(7230)
WWW = "/app/httpd/www"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


@pytest.fixture(scope="module")
def port():
    port = free_port()
    store = tempfile.mkdtemp(prefix="store")
    proc = subprocess.Popen(["bash", "/app/httpd/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, TINYHTTPD_PORT=str(port), TINYHTTPD_STORE=store),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok, deadline = False, time.time() + 30
    while not ok and time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            ok = True
        except OSError:
            time.sleep(0.1)
    yield port if ok else None
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


class Raw:
    def __init__(self, port):
        assert port, "the server did not start listening"
        self.s = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.f = self.s.makefile("rb")

    def send(self, data):
        self.s.sendall(data)

    def response(self, head=False):
        line = self.f.readline()
        assert line, "connection closed before a response"
        status = int(line.split()[1])
        headers = {}
        while True:
            h = self.f.readline()
            assert h, "connection closed inside the headers"
            if h in (b"\r\n", b"\n"):
                break
            k, _, v = h.decode("latin-1").partition(":")
            headers[k.strip().lower()] = v.strip()
        body = b""
        if not head and status not in (100, 204, 304):
            assert "content-length" in headers, f"response without Content-Length: {line!r}"
            body = self.f.read(int(headers["content-length"]))
        return status, headers, body

    def at_eof(self):
        try:
            return self.f.read(1) == b""
        except ConnectionResetError:
            return True


def req(method, path, body=None, headers=None, version="HTTP/1.1"):
    h = {"Host": "cache"}
    h.update(headers or {})
    if body is not None and not any(k.lower() in ("content-length", "transfer-encoding") for k in h):
        h["Content-Length"] = str(len(body))
    out = f"{method} {path} {version}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items()) + "\r\n"
    return out.encode("latin-1") + (body or b"")


def chunked(body, ext=True, trailer=True):
    out, i = b"", 0
    while i < len(body):
        n = min(RNG.choice([1, 7, 16, 255, 4096, 40000]), len(body) - i)
        size = format(n, RNG.choice(["x", "X"]))
        out += size.encode() + (b";name=v" + str(n).encode() if ext and RNG.random() < 0.5 else b"") + b"\r\n"
        out += body[i:i + n] + b"\r\n"
        i += n
    out += b"0" + (b";last" if ext else b"") + b"\r\n" + (b"X-Checksum: abc\r\nX-Other: 1\r\n" if trailer else b"") + b"\r\n"
    return out


def file_bytes(name):
    with open(os.path.join(WWW, name), "rb") as f:
        return f.read()


def test_pipelined_mixed_requests(port):
    r = Raw(port)
    key = f"obj-{RNG.randrange(10**6)}"
    blob = os.urandom(RNG.randrange(5000, 20000))
    echo = os.urandom(70000)
    stray = b"GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n"  # a body that looks like a request
    r.send(req("GET", "/notes.txt")
           + req("HEAD", "/")
           + req("POST", "/echo", None, {"Transfer-Encoding": "chunked"}) + chunked(echo)
           + req("PUT", f"/store/{key}", blob, {"content-length": str(len(blob))})
           + req("POST", "/nowhere", stray)
           + req("PUT", "/store/.hidden", stray)
           + req("GET", f"/store/{key}")
           + req("POST", "/status", b"{}", {"content-type": "application/json"})
           + req("GET", "/", None, {"Connection": "close"}))
    st, h, body = r.response()
    assert (st, body) == (200, file_bytes("notes.txt")), "GET /notes.txt (non-ASCII text)"
    assert h["content-type"] == "text/plain; charset=utf-8"
    st, h, body = r.response(head=True)
    assert st == 200 and int(h["content-length"]) == len(file_bytes("index.html")), "HEAD / length"
    st, h, body = r.response()
    assert st == 200 and body == echo and h["x-body-sha256"] == hashlib.sha256(echo).hexdigest(), "chunked POST /echo"
    assert r.response()[0] == 201, "PUT with a lower-case content-length header"
    assert r.response()[0] == 405, "POST /nowhere"
    assert r.response()[0] == 404, "PUT /store/.hidden"
    st, h, body = r.response()
    assert (st, body) == (200, blob), "GET of the stored object"
    st, h, body = r.response()
    assert st == 200 and key in json.loads(body)["store"], "POST /status"
    st, h, body = r.response()
    assert (st, body) == (200, file_bytes("index.html"))
    assert h.get("connection", "").lower() == "close" and r.at_eof(), "Connection: close must close"


def test_chunked_bodies(port):
    r = Raw(port)
    bodies = [b"", b"x", os.urandom(1), os.urandom(4097), os.urandom(123456), "ünïcødé ✓".encode() * 50]
    for i, body in enumerate(bodies):
        r.send(req("POST", "/echo", None, {"transfer-encoding": "chunked"})
               + chunked(body, ext=i % 2 == 0, trailer=i % 3 == 0))
    for body in bodies:
        st, h, got = r.response()
        assert st == 200 and got == body and h["x-body-sha256"] == hashlib.sha256(body).hexdigest(), len(body)
    # http.client's own chunked encoding on a kept-alive connection
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    for _ in range(5):
        parts = [os.urandom(RNG.randrange(1, 3000)) for _ in range(RNG.randrange(1, 6))]
        c.request("POST", "/echo", body=iter(parts), encode_chunked=True, headers={"Transfer-Encoding": "chunked"})
        resp = c.getresponse()
        assert resp.status == 200 and resp.read() == b"".join(parts)
    c.close()


def test_http10_persistence_rules(port):
    r = Raw(port)
    r.send(req("GET", "/notes.txt", version="HTTP/1.0"))
    st, h, body = r.response()
    assert st == 200 and body == file_bytes("notes.txt")
    assert h.get("connection", "").lower() == "close" and r.at_eof(), "HTTP/1.0 closes by default"
    r = Raw(port)
    r.send(req("GET", "/notes.txt", version="HTTP/1.0", headers={"Connection": "Keep-Alive"})
           + req("HEAD", "/notes.txt", version="HTTP/1.0", headers={"Connection": "keep-alive"})
           + req("GET", "/", version="HTTP/1.0"))
    assert r.response()[2] == file_bytes("notes.txt")
    st, h, _ = r.response(head=True)
    assert int(h["content-length"]) == len(file_bytes("notes.txt"))
    st, h, body = r.response()
    assert body == file_bytes("index.html") and r.at_eof()


def test_expect_100_continue(port):
    r = Raw(port)
    body = os.urandom(30000)
    key = f"big-{RNG.randrange(10**6)}"
    r.send(req("PUT", f"/store/{key}", None, {"Content-Length": str(len(body)), "Expect": "100-continue"}))
    st, h, _ = r.response()
    assert st == 100, "the interim 100 Continue must come before the body is sent"
    r.send(body)
    assert r.response()[0] == 201
    r.send(req("POST", "/echo", None, {"Transfer-Encoding": "chunked", "EXPECT": "100-Continue"}))
    assert r.response()[0] == 100
    r.send(chunked(body[:999]))
    st, _, got = r.response()
    assert st == 200 and got == body[:999]
    r.send(req("GET", f"/store/{key}"))
    assert r.response()[2] == body


def test_length_errors(port):
    r = Raw(port)
    r.send(req("POST", "/echo") + req("GET", "/notes.txt"))
    st, h, _ = r.response()
    assert st == 411, "POST without a length"
    assert r.response()[2] == file_bytes("notes.txt"), "the connection stays usable after a 411"
    for bad in ("12abc", "-5", "1e3"):
        r = Raw(port)
        r.send(req("POST", "/echo", None, {"Content-Length": bad}) + b"0123456789ab")
        st, h, _ = r.response()
        assert st == 400, f"Content-Length: {bad}"
        assert h.get("connection", "").lower() == "close" and r.at_eof()


@pytest.mark.parametrize("path", ["/", "/index.html", "/notes.txt", "/status", "/missing.txt"])
def test_head_matches_get(port, path):
    r = Raw(port)
    r.send(req("GET", path) + req("HEAD", path) + req("GET", "/notes.txt"))
    gs, gh, gbody = r.response()
    hs, hh, _ = r.response(head=True)
    assert gs == hs and gh.get("content-type") == hh.get("content-type")
    assert int(gh["content-length"]) == len(gbody) == int(hh["content-length"])
    assert r.response()[2] == file_bytes("notes.txt"), "HEAD must not send a body"


def test_http_client_session(port):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    stored = {}
    for i in range(40):
        op = RNG.random()
        if op < 0.4 or not stored:
            key = f"k{RNG.randrange(8)}"
            stored[key] = os.urandom(RNG.randrange(0, 9000))
            c.request("PUT", f"/store/{key}", body=stored[key])
            resp = c.getresponse()
            assert resp.status == 201, resp.status
            resp.read()
        elif op < 0.8:
            key = RNG.choice(sorted(stored))
            c.request("GET", f"/store/{key}")
            resp = c.getresponse()
            assert resp.status == 200 and resp.read() == stored[key]
        else:
            c.request("GET", "/index.html")
            resp = c.getresponse()
            assert resp.read() == file_bytes("index.html")
        assert c.sock is not None, "the connection must stay open"
    c.close()
