import http.client
import http.server
import json
import os
import signal
import socket
import subprocess
import threading
import time

import pytest


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def make_upstream(tag):
    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def any(self):
            n = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(n).decode() if n else ""
            if self.path.endswith("/missing"):
                return self.out(404, b"gone\n")
            if self.path.endswith("/boom"):
                return self.out(500, b"exploded\n", [("X-Upstream-Error", "kaboom")])
            if self.path.endswith("/redirect"):
                return self.out(302, b"", [("Location", "/elsewhere")])
            if self.path.endswith("/sleep"):
                time.sleep(8)
            info = {"upstream": tag, "method": self.command, "path": self.path, "body": body,
                    "headers": {k.lower(): v for k, v in self.headers.items()}}
            self.out(200, json.dumps(info).encode(), [("Content-Type", "application/json"), ("X-Served-By", tag)])

        def out(self, code, body, headers=()):
            self.send_response(code)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_PATCH = any

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def start_proxy(tmp_path, routes, name="cfg.json"):
    port = free_port()
    cfg = tmp_path / name
    cfg.write_text(json.dumps({"listen_host": "127.0.0.1", "listen_port": port, "upstream_timeout": 3.0,
                               "routes": routes}))
    proc = subprocess.Popen(["bash", "/app/proxy/run.sh"], env=dict(os.environ, PROXY_CONFIG=str(cfg)),
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, port
        except OSError:
            time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    pytest.fail("proxy did not start")


def stop(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    ups = {t: make_upstream(t) for t in "ABCD"}
    addr = {t: f"http://127.0.0.1:{s.server_address[1]}" for t, s in ups.items()}
    routes = [
        {"prefix": "/", "upstream": addr["A"]},
        {"prefix": "/api/", "upstream": addr["B"], "strip_prefix": True},
        {"prefix": "/static/", "upstream": addr["D"]},
        {"prefix": "/api/v2/", "upstream": addr["C"], "strip_prefix": True},
        {"prefix": "/dead/", "upstream": f"http://127.0.0.1:{free_port()}"},
    ]
    proc, port = start_proxy(tmp_path_factory.mktemp("p"), routes)
    yield {"port": port, "ups": ups}
    stop(proc)
    for s in ups.values():
        s.shutdown()


def req(port, method, path, body=None, headers=None, timeout=15):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    c.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    hdrs = {"Host": "shop.example"}
    hdrs.update(headers or {})
    if body is not None:
        hdrs["Content-Length"] = str(len(body))
    for k, v in hdrs.items():
        c.putheader(k, v)
    c.endheaders(body.encode() if body is not None else None)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, data


def echo(port, method, path, **kw):
    st, h, data = req(port, method, path, **kw)
    assert st == 200, (path, st, data)
    return json.loads(data)


def test_longest_prefix_and_strip(env):
    p = env["port"]
    assert (lambda e: (e["upstream"], e["path"]))(echo(p, "GET", "/api/v2/items")) == ("C", "/items")
    assert (lambda e: (e["upstream"], e["path"]))(echo(p, "GET", "/api/users")) == ("B", "/users")
    assert (lambda e: (e["upstream"], e["path"]))(echo(p, "GET", "/api/")) == ("B", "/")
    assert (lambda e: (e["upstream"], e["path"]))(echo(p, "GET", "/static/css/site.css")) == ("D", "/static/css/site.css")
    assert (lambda e: (e["upstream"], e["path"]))(echo(p, "GET", "/about")) == ("A", "/about")


def test_query_string_kept(env):
    e = echo(env["port"], "GET", "/api/v2/search?q=red%20shoes&page=2&x=")
    assert e["path"] == "/search?q=red%20shoes&page=2&x="
    e = echo(env["port"], "GET", "/index?lang=pt")
    assert e["path"] == "/index?lang=pt"


def test_method_and_body(env):
    payload = json.dumps({"sku": "A-17", "qty": 3})
    e = echo(env["port"], "POST", "/api/orders", body=payload, headers={"Content-Type": "application/json"})
    assert (e["method"], e["path"], e["body"]) == ("POST", "/orders", payload)
    e = echo(env["port"], "PUT", "/static/x", body="replace")
    assert (e["method"], e["body"]) == ("PUT", "replace")
    assert echo(env["port"], "DELETE", "/api/orders/9")["method"] == "DELETE"


def test_forwarding_headers(env):
    e = echo(env["port"], "GET", "/api/whoami",
             headers={"X-Forwarded-For": "203.0.113.9", "Proxy-Authorization": "Basic c2VjcmV0",
                      "X-Request-Id": "abc-123", "Keep-Alive": "timeout=5"})
    h = e["headers"]
    b_port = env["ups"]["B"].server_address[1]
    assert h["host"] == f"127.0.0.1:{b_port}"
    assert h["x-forwarded-host"] == "shop.example"
    assert h["x-forwarded-for"] == "203.0.113.9, 127.0.0.1"
    assert h["x-request-id"] == "abc-123"
    assert "proxy-authorization" not in h and "keep-alive" not in h
    e = echo(env["port"], "GET", "/plain")
    assert e["headers"]["x-forwarded-for"] == "127.0.0.1"


def test_upstream_status_passthrough(env):
    st, h, data = req(env["port"], "GET", "/api/missing")
    assert (st, data) == (404, b"gone\n")
    st, h, data = req(env["port"], "GET", "/api/v2/boom")
    assert (st, data, h.get("x-upstream-error")) == (500, b"exploded\n", "kaboom")
    st, h, data = req(env["port"], "GET", "/static/redirect")
    assert st == 302 and h.get("location") == "/elsewhere"
    st, h, data = req(env["port"], "GET", "/api/ok")
    assert st == 200 and h.get("x-served-by") == "B"


def test_gateway_errors(env):
    st, _, _ = req(env["port"], "GET", "/dead/anything")
    assert st == 502
    t0 = time.time()
    st, _, _ = req(env["port"], "GET", "/api/sleep")
    assert st == 504 and time.time() - t0 < 6.5  # upstream_timeout 3 s; the upstream would answer after 8 s


def test_slow_upstream_does_not_block(env):
    result = {}

    def slow():
        result["slow"] = req(env["port"], "GET", "/api/v2/sleep")[0]

    t = threading.Thread(target=slow)
    t.start()
    time.sleep(0.2)
    t0 = time.time()
    e = echo(env["port"], "GET", "/api/fast", timeout=6)
    # served while the slow request is still waiting for its upstream (it gives up after 3 s)
    assert e["path"] == "/fast" and time.time() - t0 < 2.5 and "slow" not in result
    t.join()
    assert result["slow"] == 504


def test_no_route_404(tmp_path):
    up = make_upstream("Z")
    proc, port = start_proxy(tmp_path, [{"prefix": "/only/", "upstream": f"http://127.0.0.1:{up.server_address[1]}"}])
    try:
        assert req(port, "GET", "/elsewhere")[0] == 404
        assert echo(port, "GET", "/only/x")["path"] == "/only/x"
    finally:
        stop(proc)
        up.shutdown()
