import http.server
import json
import math
import os
import threading
import time
import urllib.parse

CFG = json.load(open(os.environ.get("RL_CONFIG", "/app/ratelimit/config.json")))
PORT = int(os.environ.get("RL_PORT", "8088"))
LOCK = threading.Lock()
BUCKETS = {k: {"tokens": float(v["capacity"]), "t": time.monotonic()} for k, v in CFG["keys"].items()}


def take(key):
    conf = CFG["keys"][key]
    with LOCK:
        b = BUCKETS[key]
        now = time.monotonic()
        b["tokens"] = min(float(conf["capacity"]), b["tokens"] + (now - b["t"]) * conf["refill_per_sec"])
        b["t"] = now
        if b["tokens"] >= 1:
            b["tokens"] -= 1
            return True, int(math.floor(b["tokens"] + 1e-9)), None
        wait = (1 - b["tokens"]) / conf["refill_per_sec"]
        return False, 0, max(1, math.ceil(wait - 1e-9))


class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def send_json(self, code, obj, headers=()):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        u = urllib.parse.urlsplit(self.path)
        if u.path == "/health":
            return self.send_json(200, {"status": "ok"})
        if u.path != "/v1/echo":
            return self.send_json(404, {"error": "not found"})
        key = self.headers.get("X-API-Key")
        if key is None:
            return self.send_json(401, {"error": "missing key"})
        if key not in CFG["keys"]:
            return self.send_json(403, {"error": "unknown key"})
        ok, left, retry = take(key)
        if not ok:
            return self.send_json(429, {"error": "rate limited"}, [("Retry-After", str(retry))])
        msg = urllib.parse.parse_qs(u.query).get("msg", [""])[0]
        self.send_json(200, {"key": key, "msg": msg}, [("X-RateLimit-Remaining", str(left))])


class S(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    S(("127.0.0.1", PORT), H).serve_forever()
