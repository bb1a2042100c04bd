#!/bin/bash
set -euo pipefail
cat > /app/cacheproxy/proxy.py <<'PY'
"""Caching HTTP/1.1 reverse proxy (max-age/s-maxage, Vary, revalidation, invalidation)."""
import http.client
import os
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ORIGIN = os.environ.get("ORIGIN", "127.0.0.1:80")
HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "upgrade"}
LOCK = threading.Lock()
CACHE = {}  # path -> list of entries {vary: [(name, value)], status, headers, body, stored, lifetime, cc}


def directives(headers):
    out = {}
    for h in headers.get_all("Cache-Control") or []:
        for part in h.split(","):
            part = part.strip()
            if not part:
                continue
            k, _, v = part.partition("=")
            out[k.strip().lower()] = v.strip().strip('"')
    return out


def header_list(msg):
    return [(k, v) for k, v in msg.items()]


def get_header(pairs, name):
    for k, v in pairs:
        if k.lower() == name.lower():
            return v
    return None


def lifetime(cc):
    for key in ("s-maxage", "max-age"):
        if key in cc:
            try:
                return int(cc[key])
            except ValueError:
                return None
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else None

    def _origin(self, method, extra=None, body=None):
        conn = http.client.HTTPConnection(ORIGIN, timeout=60)
        headers = {}
        for k, v in self.headers.items():
            if k.lower() in HOP or k.lower() == "host":
                continue
            headers[k] = v
        headers["Host"] = ORIGIN
        for k, v in (extra or {}).items():
            headers[k] = v
        conn.request(method, self.path, body=body, headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        pairs = [(k, v) for k, v in resp.getheaders() if k.lower() not in HOP]
        conn.close()
        return resp.status, resp.reason, pairs, data, resp.msg

    def _send(self, status, reason, pairs, body, extra, head=False):
        self.send_response(status, reason)
        for k, v in pairs:
            if k.lower() in ("content-length", "x-cache", "age"):
                continue
            self.send_header(k, v)
        for k, v in extra:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _vary_key(self, vary):
        return [(n.lower(), self.headers.get(n)) for n in vary]

    def _store(self, status, pairs, body, msg):
        cc = directives(msg)
        life = lifetime(cc)
        vary_h = ",".join(msg.get_all("Vary") or [])
        vary = [v.strip() for v in vary_h.split(",") if v.strip()]
        if status != 200 or life is None or "no-store" in cc or "private" in cc or "*" in vary:
            return
        entry = {"vary": vary, "key": self._vary_key(vary), "status": status, "headers": pairs, "body": body,
                 "stored": time.monotonic(), "lifetime": life, "cc": cc}
        path = self.path
        with LOCK:
            lst = [e for e in CACHE.get(path, []) if e["key"] != entry["key"] or e["vary"] != vary]
            lst.append(entry)
            CACHE[path] = lst

    def _lookup(self):
        with LOCK:
            for e in CACHE.get(self.path, []):
                if self._vary_key(e["vary"]) == e["key"]:
                    return e
        return None

    def _cached(self, head):
        e = self._lookup()
        if head and (e is None or not (time.monotonic() - e["stored"] < e["lifetime"] and "no-cache" not in e["cc"])):
            status, reason, pairs, _, _ = self._origin("HEAD")
            self.send_response(status, reason)
            for k, v in pairs:
                if k.lower() != "x-cache":
                    self.send_header(k, v)
            self.send_header("X-Cache", "MISS")
            self.end_headers()
            return None
        if e is None:
            status, reason, pairs, body, msg = self._origin("GET")
            self._store(status, pairs, body, msg)
            return self._send(status, reason, pairs, body, [("X-Cache", "MISS")], head)
        age = time.monotonic() - e["stored"]
        if age < e["lifetime"] and "no-cache" not in e["cc"]:
            return self._send(e["status"], "OK", e["headers"], e["body"],
                              [("X-Cache", "HIT"), ("Age", str(int(age)))], head)
        etag, lm = get_header(e["headers"], "ETag"), get_header(e["headers"], "Last-Modified")
        if not etag and not lm:
            status, reason, pairs, body, msg = self._origin("GET")
            self._store(status, pairs, body, msg)
            return self._send(status, reason, pairs, body, [("X-Cache", "MISS")], head)
        extra = {}
        if etag:
            extra["If-None-Match"] = etag
        if lm:
            extra["If-Modified-Since"] = lm
        status, reason, pairs, body, msg = self._origin("GET", extra)
        if status == 304:
            with LOCK:
                headers = list(e["headers"])
                for name in ("Cache-Control", "ETag", "Expires", "Last-Modified"):
                    v = get_header(pairs, name)
                    if v is not None:
                        headers = [(k, x) for k, x in headers if k.lower() != name.lower()] + [(name, v)]
                e["headers"] = headers
                cc = directives(msg) if msg.get_all("Cache-Control") else e["cc"]
                e["cc"] = cc
                life = lifetime(cc)
                e["lifetime"] = life if life is not None else e["lifetime"]
                e["stored"] = time.monotonic()
            return self._send(200, "OK", e["headers"], e["body"], [("X-Cache", "REVALIDATED")], head)
        self._store(status, pairs, body, msg)
        return self._send(status, reason, pairs, body, [("X-Cache", "MISS")], head)

    def do_GET(self):
        self._body()
        self._cached(head=False)

    def do_HEAD(self):
        self._cached(head=True)

    def _unsafe(self):
        body = self._body()
        status, reason, pairs, data, msg = self._origin(self.command, body=body)
        if 200 <= status < 300:
            path = self.path.split("?", 1)[0]
            with LOCK:
                for k in [k for k in CACHE if k.split("?", 1)[0] == path]:
                    del CACHE[k]
        self._send(status, reason, pairs, data, [("X-Cache", "MISS")])

    do_POST = do_PUT = do_PATCH = do_DELETE = _unsafe

    def do_OPTIONS(self):
        self._unsafe_no_invalidate()

    def _unsafe_no_invalidate(self):
        body = self._body()
        status, reason, pairs, data, _ = self._origin(self.command, body=body)
        self._send(status, reason, pairs, data, [("X-Cache", "MISS")])


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    Server(("127.0.0.1", int(os.environ.get("PROXY_PORT", "8080"))), Handler).serve_forever()
PY
cat > /app/cacheproxy/run.sh <<'SH'
#!/bin/bash
exec python3 "$(dirname "$(readlink -f "$0")")/proxy.py"
SH
chmod +x /app/cacheproxy/run.sh
