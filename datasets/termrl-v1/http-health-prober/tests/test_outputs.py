import http.server
import json
import socket
import subprocess
import sys
import threading
import time

import pytest

HITS = {}
ARRIVALS = []
LOCK = threading.Lock()


class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *a):
        pass

    def reply(self, code, body=b"", headers=()):
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        p = self.path
        if p == "/ok":
            return self.reply(200, b"service status=up\n")
        if p == "/degraded":
            return self.reply(200, b"service status=degraded\n")
        if p == "/down":
            return self.reply(503, b"maintenance\n")
        if p == "/moved":
            return self.reply(301, b"", [("Location", "/ok")])
        if p.startswith("/held/"):
            with LOCK:
                ARRIVALS.append(time.monotonic())
            time.sleep(2.5)
            return self.reply(200, b"late status=up\n")
        if p == "/slow":
            time.sleep(2.5)
            return self.reply(200, b"late status=up\n")
        if p == "/drip":
            self.send_response(200)
            self.send_header("Content-Length", "30")
            self.end_headers()
            for _ in range(30):
                self.wfile.write(b"x")
                self.wfile.flush()
                time.sleep(0.1)
            return
        if p.startswith("/flaky/"):
            with LOCK:
                HITS[p] = HITS.get(p, 0) + 1
                n = HITS[p]
            return self.reply(200 if n >= 3 else 503, b"status=up\n")
        return self.reply(404, b"nope\n")


@pytest.fixture(scope="module")
def base():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()


def closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def probe(tmp_path, checks):
    cfg = tmp_path / "cfg.json"
    out = tmp_path / "out.json"
    cfg.write_text(json.dumps({"checks": checks}))
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "/app/probe.py", str(cfg), str(out)], capture_output=True, text=True, timeout=60)
    dt = time.monotonic() - t0
    data = json.loads(out.read_text())
    return r.returncode, data, dt


def by_name(data):
    return {r["name"]: r for r in data["results"]}


def test_classification(base, tmp_path):
    checks = [
        {"name": "ok", "url": base + "/ok", "body_contains": "status=up"},
        {"name": "down", "url": base + "/down"},
        {"name": "redir-expected", "url": base + "/moved", "expect_status": 301},
        {"name": "redir-unexpected", "url": base + "/moved"},
        {"name": "refused", "url": f"http://127.0.0.1:{closed_port()}/x", "timeout": 1},
        {"name": "degraded", "url": base + "/degraded", "body_contains": "status=up"},
        {"name": "missing", "url": base + "/nothing-here", "expect_status": 404},
    ]
    rc, data, _ = probe(tmp_path, checks)
    assert rc == 1
    got = [(r["name"], r["ok"], r["status"], r["error"], r["attempts"]) for r in data["results"]]
    assert got == [
        ("ok", True, 200, None, 1),
        ("down", False, 503, "status", 1),
        ("redir-expected", True, 301, None, 1),
        ("redir-unexpected", False, 301, "status", 1),
        ("refused", False, None, "connection", 1),
        ("degraded", False, 200, "body", 1),
        ("missing", True, 404, None, 1),
    ]
    assert data["summary"] == {"ok": 3, "failed": 4}


def test_timeouts_cover_whole_response(base, tmp_path):
    rc, data, _ = probe(tmp_path, [
        {"name": "slow", "url": base + "/slow", "timeout": 1.0},
        {"name": "drip", "url": base + "/drip", "timeout": 1.0},
        {"name": "drip-ok", "url": base + "/drip", "timeout": 6.0},
    ])
    r = by_name(data)
    assert (r["slow"]["ok"], r["slow"]["status"], r["slow"]["error"]) == (False, None, "timeout")
    assert (r["drip"]["ok"], r["drip"]["status"], r["drip"]["error"]) == (False, None, "timeout")
    assert (r["drip-ok"]["ok"], r["drip-ok"]["status"], r["drip-ok"]["error"]) == (True, 200, None)
    assert rc == 1


def test_retries(base, tmp_path):
    rc, data, _ = probe(tmp_path, [
        {"name": "flaky-enough", "url": base + "/flaky/a", "retries": 3, "body_contains": "status=up"},
        {"name": "flaky-short", "url": base + "/flaky/b", "retries": 1},
        {"name": "down-retried", "url": base + "/down", "retries": 2, "timeout": 1},
    ])
    r = by_name(data)
    assert (r["flaky-enough"]["ok"], r["flaky-enough"]["attempts"], r["flaky-enough"]["status"]) == (True, 3, 200)
    assert (r["flaky-short"]["ok"], r["flaky-short"]["attempts"], r["flaky-short"]["error"]) == (False, 2, "status")
    assert (r["down-retried"]["attempts"], r["down-retried"]["status"]) == (3, 503)
    assert data["summary"] == {"ok": 1, "failed": 2}


def test_concurrent_probing(base, tmp_path):
    checks = [{"name": f"s{i}", "url": base + f"/held/{i}", "timeout": 1.0} for i in range(5)]
    checks.append({"name": "fine", "url": base + "/ok"})
    with LOCK:
        ARRIVALS.clear()
    rc, data, dt = probe(tmp_path, checks)
    assert [r["name"] for r in data["results"]] == [c["name"] for c in checks]
    assert all(r["error"] == "timeout" for r in data["results"][:5])
    assert data["results"][5]["ok"] is True
    # Concurrency seen by the server, not by a stopwatch: all five slow checks must have arrived before
    # the first of them could time out (1 s); one after another they would arrive >= 1 s apart.
    with LOCK:
        arrivals = sorted(ARRIVALS)
    assert len(arrivals) == 5, arrivals
    assert arrivals[-1] - arrivals[0] < 0.9, "checks are not probed concurrently"


def test_all_ok_exit_zero(base, tmp_path):
    rc, data, _ = probe(tmp_path, [
        {"name": "a", "url": base + "/ok"},
        {"name": "b", "url": base + "/moved", "expect_status": 301},
        {"name": "c", "url": base + "/degraded", "body_contains": "degraded"},
    ])
    assert rc == 0
    assert data["summary"] == {"ok": 3, "failed": 0}
    assert all(r["error"] is None and r["attempts"] == 1 for r in data["results"])
