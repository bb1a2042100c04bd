"""A local HTTP/1.1 server with scripted drops, range behaviour and changes; resources generated here."""
import hashlib
import os
import random
import socket
import subprocess
import tempfile
import threading

import pytest

RNG = random.Random(7233)
FETCH = "/app/fetch"


def blob(n):
    return RNG.randbytes(n)


class Resource:
    def __init__(self, versions, drops, honour_range=True, fail_first=0, status=None):
        self.versions = versions          # list of (etag, bytes); the resource moves to the next after a drop
        self.v = 0
        self.drops = list(drops)          # fractions of the remaining body after which a response is cut
        self.honour_range = honour_range
        self.fail_first = fail_first      # answer 503 this many times first
        self.status = status
        self.sent = []                    # bytes of body sent per response


class Server:
    def __init__(self):
        self.res, self.log, self.lock = {}, [], threading.Lock()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(32)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self.loop, daemon=True).start()

    def loop(self):
        while True:
            c, _ = self.sock.accept()
            threading.Thread(target=self.one, args=(c,), daemon=True).start()

    def one(self, c):
        c.settimeout(30)
        try:
            buf = b""
            while b"\r\n\r\n" not in buf:
                d = c.recv(4096)
                if not d:
                    return
                buf += d
            head = buf.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
            method, target, _ = head[0].split(" ")
            h = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip() for l in head[1:] if ":" in l}
            path = target.split("?")[0]
            with self.lock:
                self.log.append((path, h))
                out = self.answer(path, h)
            status, headers, body, cut = out
            text = f"HTTP/1.1 {status} X\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
            c.sendall(text.encode() + (body if cut is None else body[:cut]))
        except OSError:
            pass
        finally:
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            c.close()

    def answer(self, path, h):
        if path.startswith("/go/"):
            return 302, {"Location": path[len("/go/"):], "Content-Length": "0", "ETag": '"r"'}, b"", None
        r = self.res.get(path)
        if r is None:
            return 404, {"Content-Length": "2", "ETag": '"nf"'}, b"no", None
        if r.status:
            return r.status, {"Content-Length": "0", "ETag": '"s"'}, b"", None
        if r.fail_first:
            r.fail_first -= 1
            return 503, {"Content-Length": "4", "ETag": '"busy"'}, b"busy", None
        etag, data = r.versions[r.v]
        start = 0
        status = 200
        if r.honour_range and "range" in h and h.get("if-range", etag) == etag:  # RFC 9110 If-Range
            start = int(h["range"].split("=")[1].rstrip("-"))
            status = 206
        body = data[start:]
        headers = {"ETag": etag, "Content-Length": str(len(body))}
        if status == 206:
            headers["Content-Range"] = f"bytes {start}-{len(data) - 1}/{len(data)}"
        cut = None
        if r.drops:
            frac = r.drops.pop(0)
            cut = max(1, int(len(body) * frac)) if frac is not None else None
            if r.v + 1 < len(r.versions) and cut is not None:
                r.v += 1  # the resource changes after this (cut) response
        r.sent.append(len(body) if cut is None else cut)
        return status, headers, body, cut


@pytest.fixture(scope="module")
def srv():
    return Server()


def run(srv, path, name=None):
    assert os.access(FETCH, os.X_OK), f"{FETCH} is missing or not executable"
    out = os.path.join(tempfile.mkdtemp(prefix="dl"), name or "artefact.bin")
    p = subprocess.run([FETCH, f"http://127.0.0.1:{srv.port}{path}", out], capture_output=True, timeout=180)
    return p.returncode, out


def requests(srv, path):
    return [h for p, h in srv.log if p == path]


def test_plain_download(srv):
    data = blob(300000)
    srv.res["/plain.bin"] = Resource([('"p1"', data)], [])
    code, out = run(srv, "/plain.bin")
    assert code == 0 and open(out, "rb").read() == data
    assert not os.path.exists(out + ".part")
    (h,) = requests(srv, "/plain.bin")
    assert "range" not in h and h.get("connection", "").lower() == "close"


def test_resume_after_drops(srv):
    data = blob(700000)
    srv.res["/big.bin"] = Resource([('"b7"', data)], [0.3, 0.05, 0.5, 0.9, 0.2])
    code, out = run(srv, "/big.bin")
    assert code == 0 and hashlib.sha256(open(out, "rb").read()).digest() == hashlib.sha256(data).digest()
    reqs, r = requests(srv, "/big.bin"), srv.res["/big.bin"]
    assert len(reqs) == 6 and "range" not in reqs[0]
    have = 0
    for h, sent in zip(reqs[1:], r.sent):
        have += sent
        assert h.get("range") == f"bytes={have}-" and h.get("if-range") == '"b7"', h


def test_server_ignoring_ranges(srv):
    data = blob(200000)
    srv.res["/norange.bin"] = Resource([('"n1"', data)], [0.5, 0.7, 0.2], honour_range=False)
    code, out = run(srv, "/norange.bin")
    assert code == 0 and open(out, "rb").read() == data, "a 200 answer to a range request restarts the download"
    assert len(requests(srv, "/norange.bin")) == 4


def test_resource_changed_midway(srv):
    v1, v2 = blob(400000), blob(350000)
    srv.res["/changing.bin"] = Resource([('"v1"', v1), ('"v2"', v2)], [0.4, 0.3])
    code, out = run(srv, "/changing.bin")
    assert code == 0 and open(out, "rb").read() == v2, "the file must be the new version, not a mix"
    reqs, r = requests(srv, "/changing.bin"), srv.res["/changing.bin"]
    assert [h.get("if-range") for h in reqs] == [None, '"v1"', '"v2"']
    assert reqs[2].get("range") == f"bytes={r.sent[1]}-"


def test_retries_and_redirects(srv):
    data = blob(50000)
    srv.res["/flaky.bin"] = Resource([('"f"', data)], [0.5], fail_first=2)
    code, out = run(srv, "/flaky.bin")
    assert code == 0 and open(out, "rb").read() == data and len(requests(srv, "/flaky.bin")) == 4
    data2 = blob(80000)
    srv.res["/moved/real.bin"] = Resource([('"m"', data2)], [0.6])
    code, out = run(srv, "/go/../moved/real.bin")
    assert code == 0 and open(out, "rb").read() == data2
    code, out = run(srv, "/go/go/go/go/go/go/moved/real.bin")
    assert code == 1 and not os.path.exists(out), "more than 5 redirects fail"


def test_failures_leave_no_output(srv):
    for path, res in (("/missing.bin", None), ("/gone.bin", Resource([('"g"', b"")], [], status=416)),
                      ("/dead.bin", Resource([('"d"', blob(100000))], [0.01] * 50))):
        if res:
            srv.res[path] = res
        d = tempfile.mkdtemp(prefix="dl")
        out = os.path.join(d, "x.bin")
        assert os.access(FETCH, os.X_OK), f"{FETCH} is missing or not executable"
        p = subprocess.run([FETCH, f"http://127.0.0.1:{srv.port}{path}", out], capture_output=True, timeout=180)
        assert p.returncode == 1, path
        assert os.listdir(d) == [], (path, os.listdir(d))
    assert len(requests(srv, "/dead.bin")) == 20, "at most 20 attempts"
    assert len(requests(srv, "/missing.bin")) == 1, "a 404 is not retried"
