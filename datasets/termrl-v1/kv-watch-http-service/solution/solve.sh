#!/bin/bash
set -euo pipefail
mkdir -p /app/kvwatch
cat > /app/kvwatch/server.py <<'PY'
"""kvwatch: hierarchical key/value HTTP service with a global index, compare-and-swap and blocking watches."""
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

PORT = int(os.environ.get("KV_PORT", "2379"))
COND = threading.Condition()
STORE = {}  # key -> {"value", "modifiedIndex", "createdIndex"}
EVENTS = []  # (index, key, payload)
INDEX = [0]


def node(key):
    n = STORE[key]
    return {"key": key, "value": n["value"], "modifiedIndex": n["modifiedIndex"], "createdIndex": n["createdIndex"]}


def under(key, prefix):
    return key == prefix or key.startswith(prefix.rstrip("/") + "/") or prefix == "/"


def error(code, status, message, cause):
    return status, {"errorCode": code, "message": message, "cause": cause, "index": INDEX[0]}


def listing(prefix, recursive):
    base = prefix.rstrip("/") or ""
    children = {}
    for key in STORE:
        if not key.startswith(base + "/"):
            continue
        rest = key[len(base) + 1:]
        first = rest.split("/", 1)[0]
        children.setdefault(base + "/" + first, []).append(key)
    nodes = []
    for child in sorted(children):
        if child in STORE:
            nodes.append(node(child))
        else:
            d = {"key": child, "dir": True}
            if recursive:
                d["nodes"] = listing(child, True)
            nodes.append(d)
    return nodes


def record(action, key, prev):
    INDEX[0] += 1
    payload = {"action": action}
    if action in ("delete", "compareAndDelete"):
        payload["node"] = {"key": key, "modifiedIndex": INDEX[0], "createdIndex": prev["createdIndex"]}
    else:
        payload["node"] = node(key)
    if prev is not None:
        payload["prevNode"] = prev
    EVENTS.append((INDEX[0], key, payload))
    COND.notify_all()
    return payload


def write(method, key, q, form):
    prev = node(key) if key in STORE else None
    prev_exist = q.get("prevExist")
    prev_index = q.get("prevIndex")
    if method == "DELETE":
        if prev is None and (key == "/" or any(k.startswith(key.rstrip("/") + "/") for k in STORE)):
            return error(102, 403, "Not a file", key)
        if prev is None:
            return error(100, 404, "Key not found", key)
        if prev_index is not None and str(prev["modifiedIndex"]) != prev_index:
            return error(101, 412, "Compare failed", f"[{prev_index} != {prev['modifiedIndex']}]")
        del STORE[key]
        return 200, record("compareAndDelete" if prev_index is not None else "delete", key, prev)
    if "value" not in form:
        return error(209, 400, "Value is required", "")
    if prev_exist == "false" and prev is not None:
        return error(105, 412, "Key already exists", key)
    if prev_exist == "true" and prev is None:
        return error(100, 404, "Key not found", key)
    if prev_index is not None:
        if prev is None:
            return error(100, 404, "Key not found", key)
        if str(prev["modifiedIndex"]) != prev_index:
            return error(101, 412, "Compare failed", f"[{prev_index} != {prev['modifiedIndex']}]")
    if any(k.startswith(key + "/") for k in STORE):
        return error(102, 403, "Not a file", key)
    parts = key.split("/")
    for i in range(2, len(parts)):
        if "/".join(parts[:i]) in STORE:
            return error(104, 403, "Not a directory", "/".join(parts[:i]))
    created = prev["createdIndex"] if prev else INDEX[0] + 1
    STORE[key] = {"value": form["value"], "modifiedIndex": INDEX[0] + 1, "createdIndex": created}
    action = "compareAndSwap" if prev_index is not None else "create" if prev_exist == "false" else \
        "update" if prev_exist == "true" else "set"
    return (201 if prev is None else 200), record(action, key, prev)


def watch(key, q):
    recursive = q.get("recursive") == "true"
    start = int(q["waitIndex"]) if "waitIndex" in q else INDEX[0] + 1
    pos = 0
    while True:
        for idx, k, payload in EVENTS[pos:]:
            if idx >= start and (under(k, key) if recursive else k == key):
                return 200, payload
        pos = len(EVENTS)
        COND.wait()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def respond(self, status, body):
        data = (json.dumps(body) + "\n").encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-Kv-Index", str(INDEX[0]))
        self.end_headers()
        self.wfile.write(data)

    def target(self):
        url = urlsplit(self.path)
        q = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        if not url.path.startswith("/v2/keys"):
            return None, q
        key = "/" + url.path[len("/v2/keys"):].strip("/")
        return key, q

    def handle_any(self, method):
        key, q = self.target()
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode() if length else ""
        if key is None:
            return self.respond(404, {"errorCode": 404, "message": "Not found", "cause": self.path, "index": INDEX[0]})
        form = {k: v[-1] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        with COND:
            if method == "GET":
                if q.get("wait") == "true":
                    status, body = watch(key, q)
                elif key in STORE:
                    status, body = 200, {"action": "get", "node": node(key)}
                elif key == "/" or any(k.startswith(key + "/") for k in STORE):
                    d = {"key": key, "dir": True, "nodes": listing(key, q.get("recursive") == "true")}
                    status, body = 200, {"action": "get", "node": d}
                else:
                    status, body = error(100, 404, "Key not found", key)
            else:
                status, body = write(method, key, q, form)
            self.respond(status, body)

    def do_GET(self):
        self.handle_any("GET")

    def do_PUT(self):
        self.handle_any("PUT")

    def do_DELETE(self):
        self.handle_any("DELETE")


ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
PY
cat > /app/kvwatch/run.sh <<'SH'
#!/bin/bash
exec python3 /app/kvwatch/server.py
SH
chmod +x /app/kvwatch/run.sh
