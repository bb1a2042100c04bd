#!/bin/bash
set -euo pipefail
mkdir -p /app/lb
cat > /app/lb/lb.py <<'PY'
"""HTTP/1.1 load balancer: smooth weighted round-robin, retries, ejection, sticky cookie."""
import http.client
import http.cookies
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CONF = json.load(open(os.environ.get("LB_CONFIG", "/etc/lb/lb.json")))
MAX_FAILS, READMIT, COOKIE = CONF["max_fails"], CONF["readmit_after"], CONF["sticky_cookie"]
RETRY = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}
HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "proxy-connection", "te", "upgrade"}
LOCK = threading.Lock()
STATE = {"n": 0}


class Backend:
    def __init__(self, d):
        self.name, self.weight = d["name"], int(d["weight"])
        host, port = d["address"].rsplit(":", 1)
        self.host, self.port = host, int(port)
        self.current = self.fails = 0
        self.down_until = -1

    def up(self, n):
        return n > self.down_until


BACKENDS = [Backend(d) for d in CONF["backends"]]
BY_NAME = {b.name: b for b in BACKENDS}


def pick(cands):
    total = sum(b.weight for b in cands)
    for b in cands:
        b.current += b.weight
    best = max(cands, key=lambda b: (b.current, -BACKENDS.index(b)))
    best.current -= total
    return best


def attempt(b, method, target, headers, body):
    try:
        conn = http.client.HTTPConnection(b.host, b.port, timeout=30)
        conn.request(method, target, body=body, headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        result = resp.status, resp.reason, resp.getheaders(), data
        conn.close()
    except (OSError, http.client.HTTPException):
        return None
    return None if result[0] in (502, 503, 504) else result


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def handle_any(self):
        n_body = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n_body) if n_body else None
        headers = [(k, v) for k, v in self.headers.items() if k.lower() not in HOP]
        headers.append(("X-Forwarded-For", self.client_address[0]))
        if body is not None:
            headers.append(("Content-Length", str(len(body))))
        sticky = None
        if "Cookie" in self.headers:
            c = http.cookies.SimpleCookie()
            try:
                c.load(self.headers["Cookie"])
            except http.cookies.CookieError:
                pass
            if COOKIE in c:
                sticky = BY_NAME.get(c[COOKIE].value)
        with LOCK:
            STATE["n"] += 1
            n = STATE["n"]
        tried, first = set(), True
        while True:
            with LOCK:
                if first and sticky is not None and sticky.up(n):
                    b = sticky
                else:
                    cands = [x for x in BACKENDS if x.up(n) and x not in tried]
                    if not cands:
                        return self.reply(503 if first else 502)
                    b = pick(cands)
            first = False
            tried.add(b)
            result = attempt(b, self.command, self.path, dict(headers), body)
            with LOCK:
                if result is None:
                    b.fails += 1
                    if b.fails >= MAX_FAILS:
                        b.fails, b.down_until = 0, n + READMIT
                else:
                    b.fails = 0
            if result is not None:
                return self.relay(b, *result)
            if self.command not in RETRY:
                return self.reply(502)

    def relay(self, b, status, reason, headers, data):
        self.send_response_only(status, reason)
        for k, v in headers:
            if k.lower() not in HOP and k.lower() not in ("date", "server"):
                self.send_header(k, v)
        self.send_header("X-Backend", b.name)
        self.send_header("Set-Cookie", f"{COOKIE}={b.name}; Path=/")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def reply(self, status):
        body = f"{status}\n".encode()
        self.send_response_only(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_OPTIONS = do_PATCH = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    host, port = CONF["listen"].rsplit(":", 1)
    Server((host, int(port)), Handler).serve_forever()
PY
cat > /app/lb/run.sh <<'SH'
#!/bin/bash
exec python3 /app/lb/lb.py
SH
chmod +x /app/lb/run.sh
