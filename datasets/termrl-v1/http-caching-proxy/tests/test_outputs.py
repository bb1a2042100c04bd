"""The caching proxy, started here through /app/cacheproxy/run.sh in front of an origin server run by
the test (which counts what reaches it), with paths and bodies chosen at test time."""
import http.client
import json
import os
import random
import socket
import string
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

RNG = random.Random(os.urandom(8))


def word(n=8):
    return "".join(RNG.choice(string.ascii_lowercase) for _ in range(n))


class Origin:
    def __init__(self):
        self.hits, self.seen, self.release = {}, [], threading.Event()
        self.version = {}
        origin = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def _reply(self, status, headers, body=b""):
                self.send_response(status)
                for k, v in headers:
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def handle_one(self):
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n) if n else b""
                path = self.path
                base = path.split("?")[0]
                kind = base.split("/")[1]
                origin.hits[(self.command, path)] = origin.hits.get((self.command, path), 0) + 1
                origin.seen.append((self.command, path, dict(self.headers.items()), body))
                v = origin.version.get(base, 1)
                if kind == "echo":
                    return self._reply(200, [("Content-Type", "application/json")], json.dumps(
                        {"method": self.command, "path": path, "headers": dict(self.headers.items()),
                         "body": body.decode()}).encode())
                if self.command in ("POST", "PUT", "PATCH", "DELETE"):
                    if kind == "broken":
                        return self._reply(500, [], b"no")
                    origin.version[base] = v + 1
                    return self._reply(201 if self.command == "POST" else 200, [("Content-Type", "text/plain")], b"done:" + body)
                payload = f"{base}|v{v}|{word(4)}".encode()
                if kind == "fresh":
                    return self._reply(200, [("Cache-Control", "public, max-age=3600"), ("X-Origin", "yes")], payload)
                if kind == "smax":
                    return self._reply(200, [("Cache-Control", "max-age=0, s-maxage=3600")], payload)
                if kind == "smaxzero":
                    return self._reply(200, [("Cache-Control", "max-age=3600, s-maxage=0")], payload)
                if kind == "nostore":
                    return self._reply(200, [("Cache-Control", "no-store, max-age=3600")], payload)
                if kind == "private":
                    return self._reply(200, [("Cache-Control", "private, max-age=3600")], payload)
                if kind == "notfound":
                    return self._reply(404, [("Cache-Control", "max-age=3600")], b"missing")
                if kind in ("etag", "nocache"):
                    tag = f'"{base}-v{v}"'
                    cc = "no-cache, max-age=3600" if kind == "nocache" else "max-age=1"
                    if self.headers.get("If-None-Match") == tag:
                        return self._reply(304, [("Cache-Control", cc if kind == "nocache" else "max-age=3600"),
                                                 ("ETag", tag)])
                    return self._reply(200, [("Cache-Control", cc), ("ETag", tag)], payload)
                if kind == "lm":
                    stamp = "Mon, 02 Mar 2026 10:00:00 GMT"
                    if origin.hits[(self.command, path)] > 1:
                        return self._reply(200, [("Cache-Control", "max-age=3600"), ("Last-Modified", stamp)],
                                           b"changed:" + payload)
                    return self._reply(200, [("Cache-Control", "max-age=1"), ("Last-Modified", stamp)], payload)
                if kind == "vary":
                    enc = self.headers.get("Accept-Encoding", "<none>")
                    return self._reply(200, [("Cache-Control", "max-age=3600"), ("Vary", "Accept-Encoding")],
                                       f"{payload.decode()}|{enc}".encode())
                if kind == "varystar":
                    return self._reply(200, [("Cache-Control", "max-age=3600"), ("Vary", "*")], payload)
                if kind == "slow":
                    origin.release.wait(60)
                    return self._reply(200, [], b"slow")
                if kind == "api":
                    return self._reply(200, [("Cache-Control", "max-age=3600")], payload)
                return self._reply(200, [("Cache-Control", "max-age=3600")], payload)

            do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = handle_one

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def count(self, path, method="GET"):
        return self.hits.get((method, path), 0)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture()
def setup():
    origin = Origin()
    port = free_port()
    assert os.access("/app/cacheproxy/run.sh", os.X_OK), "run.sh missing or not executable"
    proc = subprocess.Popen(["/app/cacheproxy/run.sh"], cwd="/", start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL,
                            env=dict(os.environ, PROXY_PORT=str(port), ORIGIN=f"127.0.0.1:{origin.port}"))
    for _ in range(300):
        assert proc.poll() is None, "the proxy exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    yield origin, port
    os.killpg(proc.pid, 9)
    proc.wait()
    origin.release.set()
    origin.server.shutdown()


def req(port, method, path, headers=None, body=None, conn=None):
    c = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request(method, path, body=body, headers=headers or {})
    r = c.getresponse()
    data = r.read()
    if conn is None:
        c.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, data


def test_fresh_hits_lifetimes_and_uncacheable(setup):
    origin, port = setup
    p = f"/fresh/{word()}?x={word(3)}"
    t0 = time.monotonic()  # before the proxy can have received the response, so t0 bounds its Age
    s, h, first = req(port, "GET", p)
    assert s == 200 and h["x-cache"] == "MISS" and h["x-origin"] == "yes"
    s, h, again = req(port, "GET", p)
    assert (s, h["x-cache"], again) == (200, "HIT", first) and origin.count(p) == 1
    assert 0 <= int(h["age"]) <= time.monotonic() - t0 + 1
    assert req(port, "GET", p.split("?")[0])[1]["x-cache"] == "MISS", "the query is part of the key"
    s2 = f"/smax/{word()}"
    req(port, "GET", s2)
    assert req(port, "GET", s2)[1]["x-cache"] == "HIT", "s-maxage=3600 wins over max-age=0"
    for kind in ("smaxzero", "nostore", "private", "varystar", "notfound"):
        q = f"/{kind}/{word()}"
        for _ in range(2):
            assert req(port, "GET", q)[1]["x-cache"] == "MISS", kind
        assert origin.count(q) == 2, f"{kind} must not be served from the cache"


def test_revalidation_with_etag_and_last_modified(setup):
    origin, port = setup
    p = f"/etag/{word()}"
    _, _, body = req(port, "GET", p)
    time.sleep(2.2)  # max-age=1: now stale (a loaded machine only makes it staler)
    s, h, again = req(port, "GET", p)
    assert (s, h["x-cache"], again) == (200, "REVALIDATED", body)
    cond = [hd for m, path, hd, _ in origin.seen if path == p][-1]
    assert cond.get("If-None-Match") == f'"{p}-v1"'
    s, h, third = req(port, "GET", p)
    assert h["x-cache"] == "HIT" and third == body, "the 304's max-age=3600 must refresh the entry"
    assert origin.count(p) == 2
    q = f"/lm/{word()}"
    req(port, "GET", q)
    time.sleep(2.2)
    s, h, changed = req(port, "GET", q)
    assert h["x-cache"] == "MISS" and changed.startswith(b"changed:")
    cond = [hd for m, path, hd, _ in origin.seen if path == q][-1]
    assert cond.get("If-Modified-Since") == "Mon, 02 Mar 2026 10:00:00 GMT"
    s, h, last = req(port, "GET", q)
    assert h["x-cache"] == "HIT" and last == changed


def test_no_cache_always_revalidates(setup):
    origin, port = setup
    p = f"/nocache/{word()}"
    _, _, body = req(port, "GET", p)
    for _ in range(3):
        s, h, again = req(port, "GET", p)
        assert (h["x-cache"], again) == ("REVALIDATED", body)
    assert origin.count(p) == 4


def test_vary_keeps_variants_apart(setup):
    origin, port = setup
    p = f"/vary/{word()}"
    variants = [{"Accept-Encoding": "gzip"}, {"Accept-Encoding": "identity"}, {"Accept-Encoding": "br"}]
    bodies = {}
    for hd in variants * 2:
        s, h, body = req(port, "GET", p, headers=hd)
        key = hd["Accept-Encoding"]
        assert body.decode().endswith("|" + key), (hd, body)
        bodies.setdefault(key, body)
        assert body == bodies[key]
    assert origin.count(p) == 3


def test_head_and_invalidation(setup):
    origin, port = setup
    p = f"/api/{word()}"
    _, _, body = req(port, "GET", p + "?page=1")
    req(port, "GET", p)
    s, h, nobody = req(port, "HEAD", p + "?page=1")
    assert (s, h["x-cache"], nobody, int(h["content-length"])) == (200, "HIT", b"", len(body))
    assert origin.count(p + "?page=1", "HEAD") == 0
    s, h, _ = req(port, "POST", p, body=b"new item", headers={"Content-Type": "text/plain"})
    assert s == 201
    for path in (p + "?page=1", p):
        assert req(port, "GET", path)[1]["x-cache"] == "MISS", "a 2xx POST invalidates every entry of its path"
    b = f"/broken/{word()}"
    req(port, "GET", b)
    assert req(port, "DELETE", b)[0] == 500
    assert req(port, "GET", b)[1]["x-cache"] == "HIT", "a failed DELETE does not invalidate"
    s, h, _ = req(port, "HEAD", f"/fresh/{word()}")
    assert s == 200 and h["x-cache"] == "MISS"


def test_forwarding_keepalive_and_concurrency(setup):
    origin, port = setup
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    secret = word(12)
    s, h, data = req(port, "PUT", f"/echo/{word()}?a=1&b=2", headers={"X-Token": secret, "Content-Type": "text/plain"},
                     body=secret.encode(), conn=conn)
    sock = conn.sock
    echoed = json.loads(data)
    assert echoed["method"] == "PUT" and echoed["body"] == secret and echoed["path"].endswith("?a=1&b=2")
    assert echoed["headers"].get("X-Token") == secret
    assert echoed["headers"].get("Host") == f"127.0.0.1:{origin.port}"
    for _ in range(3):
        req(port, "GET", f"/fresh/{word()}", conn=conn)
    assert conn.sock is sock and sock is not None, "the client connection must stay open between requests"
    result = {}
    slow = threading.Thread(target=lambda: result.setdefault("slow", req(port, "GET", "/slow/x")), daemon=True)
    slow.start()
    time.sleep(0.5)
    for _ in range(3):
        assert req(port, "GET", f"/fresh/{word()}")[0] == 200
    assert "slow" not in result, "the slow request must still be pending"
    origin.release.set()
    slow.join(60)
    assert result["slow"][2] == b"slow"
