"""Backends and balancer configurations are generated here; expected picks come from a model of the contract."""
import hashlib
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

RNG = random.Random(8000)
RETRY = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Backend:
    """mode: ok (200 echo), e500 (a normal 500), e503 / e502 (failures), drop (closes without answering)."""

    def __init__(self, name, weight):
        self.name, self.weight, self.mode = name, weight, "ok"
        self.seen = []
        outer = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def any(self):
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n) if n else b""
                outer.seen.append((self.command, self.path, body, dict(self.headers)))
                if outer.mode == "drop":
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                status = {"ok": 200, "e500": 500, "e503": 503, "e502": 502}[outer.mode]
                out = json.dumps({"backend": outer.name, "method": self.command, "path": self.path,
                                  "sha": hashlib.sha256(body).hexdigest(),
                                  "xff": self.headers.get("X-Forwarded-For")}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("X-Echo-Custom", self.headers.get("X-Custom", ""))
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(out)

            do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_OPTIONS = do_PATCH = any

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


class Model:
    def __init__(self, backends, max_fails, readmit):
        self.b = backends
        self.cur = {b.name: 0 for b in backends}
        self.fails = {b.name: 0 for b in backends}
        self.down = {b.name: -1 for b in backends}
        self.n, self.max_fails, self.readmit = 0, max_fails, readmit

    def pick(self, cands):
        total = sum(b.weight for b in cands)
        for b in cands:
            self.cur[b.name] += b.weight
        best = max(cands, key=lambda b: (self.cur[b.name], -self.b.index(b)))
        self.cur[best.name] -= total
        return best

    def request(self, method, sticky=None):
        """Returns (status, backend name or None, names of the backends attempted)."""
        self.n += 1
        n, tried, first = self.n, [], True
        byname = {b.name: b for b in self.b}
        while True:
            if first and sticky in byname and n > self.down[sticky]:
                b = byname[sticky]
            else:
                cands = [x for x in self.b if n > self.down[x.name] and x not in tried]
                if not cands:
                    return (503 if first else 502), None, [t.name for t in tried]
                b = self.pick(cands)
            first = False
            tried.append(b)
            if b.mode in ("ok", "e500"):
                self.fails[b.name] = 0
                return (200 if b.mode == "ok" else 500), b.name, [t.name for t in tried]
            self.fails[b.name] += 1
            if self.fails[b.name] >= self.max_fails:
                self.fails[b.name], self.down[b.name] = 0, n + self.readmit
            if method not in RETRY:
                return 502, None, [t.name for t in tried]


class Balancer:
    def __init__(self, backends, max_fails=2, readmit=5, cookie="LBSRV"):
        self.backends = {b.name: b for b in backends}
        self.port = free_port()
        conf = {"listen": f"127.0.0.1:{self.port}", "max_fails": max_fails, "readmit_after": readmit,
                "sticky_cookie": cookie,
                "backends": [{"name": b.name, "address": f"127.0.0.1:{b.port}", "weight": b.weight} for b in backends]}
        path = tempfile.mktemp(suffix=".json")
        with open(path, "w") as f:
            json.dump(conf, f)
        self.model = Model(backends, max_fails, readmit)
        self.cookie = cookie
        self.proc = subprocess.Popen(["bash", "/app/lb/run.sh"], cwd="/", start_new_session=True,
                                     env=dict(os.environ, LB_CONFIG=path),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ok, deadline = False, time.time() + 30
        while not ok and time.time() < deadline and self.proc.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                ok = True
            except OSError:
                time.sleep(0.1)
        if not ok:
            self.stop()
            pytest.fail("the balancer did not start listening")
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)

    def send(self, method="GET", path="/", body=None, headers=None):
        for _ in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers or {})
                r = self.conn.getresponse()
                return r, r.read()
            except (http.client.RemoteDisconnected, ConnectionError):
                self.conn.close()  # the balancer may close a kept-alive connection; one fresh try
        raise AssertionError("no answer from the balancer")

    def check(self, method="GET", sticky=None):
        """Sends one request and compares it with the model: status, answering backend, attempts."""
        before = {n: len(b.seen) for n, b in self.backends.items()}
        status, name, tried = self.model.request(method, sticky)
        headers = {"Cookie": f"{self.cookie}={sticky}"} if sticky else {}
        path = f"/item/{RNG.randrange(10**6)}?q={RNG.randrange(100)}"
        r, body = self.send(method, path, b"payload" if method in ("POST", "PUT") else None, headers)
        assert r.status == status, (method, sticky, r.status, status, tried)
        if name:
            assert r.getheader("X-Backend") == name, (r.getheader("X-Backend"), name, tried)
            assert r.getheader("Set-Cookie", "").startswith(f"{self.cookie}={name}"), r.getheader("Set-Cookie")
            if method != "HEAD":
                got = json.loads(body)
                assert got["backend"] == name and got["path"] == path and got["method"] == method
        live = [n for n, b in self.backends.items() if b.mode != "dead"]  # a dead one cannot count attempts
        attempts = {n: len(self.backends[n].seen) - before[n] for n in live}
        assert attempts == {n: tried.count(n) for n in live}, (attempts, tried)
        return name

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)


def make(weights):
    return [Backend(f"b{i}-{RNG.randrange(1000)}", w) for i, w in enumerate(weights)]


def test_smooth_weighted_sequence():
    bs = make([5, 1, 1, 2])
    lb = Balancer(bs)
    try:
        names = [lb.check() for _ in range(3 * 9)]
        for b in bs:
            assert names.count(b.name) == 3 * b.weight
        assert names[:9] == [bs[i].name for i in (0, 3, 0, 1, 0, 2, 0, 3, 0)]
    finally:
        lb.stop()


def test_failures_retries_and_readmission():
    bs = make([RNG.randrange(1, 4) for _ in range(3)])
    lb = Balancer(bs, max_fails=2, readmit=4)
    try:
        for _ in range(5):
            lb.check()
        bs[1].mode = "e503"
        for _ in range(10):
            lb.check()
        bs[1].mode = "ok"  # fixed while it is down: it must come back after readmit_after requests
        for _ in range(10):
            lb.check()
        bs[2].mode = "drop"
        for m in ("GET", "HEAD", "DELETE", "OPTIONS", "PUT", "GET", "GET", "GET"):
            lb.check(m)
        bs[2].mode = "e500"  # a 500 is a normal answer
        for _ in range(12):
            lb.check()
    finally:
        lb.stop()


def test_non_idempotent_not_retried():
    bs = make([1, 1])
    lb = Balancer(bs, max_fails=3, readmit=3)
    try:
        bs[0].mode = "e502"
        seq = ["POST", "POST", "PATCH", "POST", "GET", "POST", "POST", "POST", "POST", "GET", "POST", "POST"]
        for m in seq:
            lb.check(m)
        assert sum(1 for s in bs[0].seen if s[0] in ("POST", "PATCH")) >= 2, "the failing backend got POSTs"
    finally:
        lb.stop()


def test_all_backends_failing():
    bs = make([2, 1])
    lb = Balancer(bs, max_fails=1, readmit=3)
    try:
        for b in bs:
            b.mode = "e503"
        for _ in range(6):
            lb.check()
        bs[0].mode = "ok"
        for _ in range(6):
            lb.check()
    finally:
        lb.stop()
    # a backend that is not even listening
    bs = make([1, 3])
    bs[1].server.shutdown()
    bs[1].server.server_close()
    bs[1].mode = "dead"  # connection refused: a failure for the model
    lb = Balancer(bs, max_fails=2, readmit=2)
    try:
        bs[1].seen.clear()
        for _ in range(10):
            lb.check()
    finally:
        lb.stop()


def test_sticky_cookie():
    bs = make([3, 1, 2])
    lb = Balancer(bs, max_fails=1, readmit=3, cookie="SRV" + str(RNG.randrange(100)))
    try:
        plan = [None, bs[1].name, bs[1].name, None, bs[2].name, None, "nonexistent", bs[1].name, None, None]
        for s in plan:
            lb.check(sticky=s)
        bs[1].mode = "e503"
        lb.check("GET", sticky=bs[1].name)   # fails over, bs[1] goes down
        lb.check("GET", sticky=bs[1].name)   # down: a normal pick
        lb.check("POST", sticky=bs[0].name)
        bs[0].mode = "e503"
        lb.check("POST", sticky=bs[0].name)  # not retried
        bs[0].mode = bs[1].mode = "ok"
        for s in [None, bs[1].name, None, None, bs[0].name, None, None, None]:
            lb.check(sticky=s)
    finally:
        lb.stop()


def test_relay_fidelity():
    bs = make([1])
    lb = Balancer(bs)
    try:
        body = os.urandom(400000)
        path = "/upload/a%20b/c?x=1&y=%C3%BC"
        r, data = lb.send("PUT", path, body, {"X-Custom": "v-123", "Content-Type": "application/x-thing"})
        assert r.status == 200
        got = json.loads(data)
        assert got["path"] == path and got["sha"] == hashlib.sha256(body).hexdigest()
        assert got["xff"] == "127.0.0.1"
        assert r.getheader("X-Echo-Custom") == "v-123" and r.getheader("Content-Type") == "application/json"
        seen = bs[0].seen[-1][3]
        assert seen.get("Content-Type") == "application/x-thing" and seen.get("X-Custom") == "v-123"
        bs[0].mode = "e500"
        r, data = lb.send("GET", "/broken")
        assert r.status == 500 and json.loads(data)["path"] == "/broken"
        r, data = lb.send("HEAD", "/h")
        assert r.status == 500 and data == b"" and r.getheader("X-Backend") == bs[0].name
    finally:
        lb.stop()
