import json
import os
import re
import socketserver
import threading

PORT = int(os.environ.get("KV_PORT", "7411"))
DATA = os.environ.get("KV_DATA", "/app/data/kv.json")
KEY_RE = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
INT_RE = re.compile(r"^-?[0-9]+$")
LOCK = threading.Lock()
STORE = {}


def load():
    global STORE
    try:
        with open(DATA) as fh:
            STORE = {str(k): str(v) for k, v in json.load(fh).items()}
    except FileNotFoundError:
        STORE = {}


def save():
    d = os.path.dirname(DATA) or "."
    os.makedirs(d, exist_ok=True)
    tmp = DATA + ".tmp"
    with open(tmp, "w") as fh:
        json.dump(STORE, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, DATA)


def handle_line(line):
    if line == "":
        return ["ERR unknown-command"], False
    cmd, sp, rest = line.partition(" ")
    cmd = cmd.upper()
    if cmd == "QUIT":
        return ["BYE"], True
    if cmd == "SET":
        key, sp2, value = rest.partition(" ")
        if not sp or not sp2:
            return ["ERR bad-args"], False
        if not KEY_RE.match(key):
            return ["ERR bad-key"], False
        with LOCK:
            STORE[key] = value
            save()
        return ["OK"], False
    if cmd in ("GET", "DEL"):
        if not sp or rest == "":
            return ["ERR bad-args"], False
        key = rest
        if not KEY_RE.match(key):
            return ["ERR bad-key"], False
        with LOCK:
            if key not in STORE:
                return ["NIL"], False
            if cmd == "GET":
                return ["VALUE " + STORE[key]], False
            del STORE[key]
            save()
            return ["DELETED"], False
    if cmd == "INCR":
        if not sp or rest == "":
            return ["ERR bad-args"], False
        parts = rest.split(" ")
        if len(parts) > 2:
            return ["ERR bad-args"], False
        key = parts[0]
        if not KEY_RE.match(key):
            return ["ERR bad-key"], False
        n = 1
        if len(parts) == 2:
            if not INT_RE.match(parts[1]):
                return ["ERR bad-args"], False
            n = int(parts[1])
        with LOCK:
            cur = STORE.get(key, "0")
            if not INT_RE.match(cur):
                return ["ERR not-integer"], False
            new = int(cur) + n
            STORE[key] = str(new)
            save()
        return [f"VALUE {new}"], False
    if cmd == "KEYS":
        prefix = rest if sp else ""
        with LOCK:
            keys = sorted((k for k in STORE if k.startswith(prefix)), key=lambda k: k.encode())
        return [f"KEYS {len(keys)}"] + keys, False
    return ["ERR unknown-command"], False


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        while True:
            raw = self.rfile.readline()
            if not raw:
                return
            line = raw.decode("utf-8", "replace")
            if line.endswith("\n"):
                line = line[:-1]
            if line.endswith("\r"):
                line = line[:-1]
            out, close = handle_line(line)
            self.wfile.write("".join(l + "\n" for l in out).encode())
            self.wfile.flush()
            if close:
                return


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


if __name__ == "__main__":
    load()
    with Server(("127.0.0.1", PORT), Handler) as srv:
        srv.serve_forever()
