#!/bin/bash
set -euo pipefail
mkdir -p /app/tracker
cat > /app/tracker/tracker.py <<'PY'
"""A BitTorrent HTTP tracker: announce (compact and dictionary peer lists) and scrape, bencoded."""
import os
import socket
import struct
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote_to_bytes, urlsplit

PORT = int(os.environ.get("TRACKER_PORT", "6969"))
TORRENTS_FILE = os.environ.get("TRACKER_TORRENTS", "/etc/tracker/torrents.txt")
LOCK = threading.Lock()
TORRENTS = {}
for line in open(TORRENTS_FILE, encoding="ascii"):
    line = line.strip()
    if line and not line.startswith("#"):
        TORRENTS[bytes.fromhex(line)] = {"peers": {}, "downloaded": 0, "completed_by": set()}


def bencode(x):
    if isinstance(x, int):
        return b"i%de" % x
    if isinstance(x, str):
        x = x.encode()
    if isinstance(x, bytes):
        return b"%d:%s" % (len(x), x)
    if isinstance(x, list):
        return b"l" + b"".join(bencode(i) for i in x) + b"e"
    items = sorted((k.encode() if isinstance(k, str) else k, v) for k, v in x.items())
    return b"d" + b"".join(bencode(k) + bencode(v) for k, v in items) + b"e"


def query(raw):
    out = {}
    for part in raw.split("&"):
        if not part:
            continue
        k, _, v = part.partition("=")
        out.setdefault(unquote_to_bytes(k).decode("latin-1"), []).append(unquote_to_bytes(v.replace("+", " ")))
    return out


def counts(t):
    seeders = sum(1 for p in t["peers"].values() if p["left"] == 0)
    return seeders, len(t["peers"]) - seeders


def announce(q, ip):
    def one(name):
        return q[name][0] if name in q else None

    info_hash, peer_id = one("info_hash"), one("peer_id")
    if info_hash is None or len(info_hash) != 20:
        return {"failure reason": "invalid info_hash"}
    if peer_id is None or len(peer_id) != 20:
        return {"failure reason": "invalid peer_id"}
    try:
        port = int(one("port") or b"")
        left = int(one("left") or b"")
        numwant = int(one("numwant")) if one("numwant") is not None else 50
    except ValueError:
        return {"failure reason": "invalid parameters"}
    if not 1 <= port <= 65535 or left < 0:
        return {"failure reason": "invalid parameters"}
    t = TORRENTS.get(info_hash)
    if t is None:
        return {"failure reason": "unregistered torrent"}
    event = (one("event") or b"").decode("latin-1")
    if event == "stopped":
        t["peers"].pop(peer_id, None)
    else:
        old = t["peers"].get(peer_id)
        order = old["order"] if old else (max((p["order"] for p in t["peers"].values()), default=0) + 1)
        t["peers"][peer_id] = {"ip": ip, "port": port, "left": left, "order": order}
        if event == "completed" and peer_id not in t["completed_by"]:
            t["completed_by"].add(peer_id)
            t["downloaded"] += 1
    numwant = max(0, min(numwant, 200))
    others = sorted(((pid, p) for pid, p in t["peers"].items() if pid != peer_id), key=lambda kv: kv[1]["order"])
    if left == 0:
        others = [(pid, p) for pid, p in others if p["left"] != 0]
    others = others[:numwant] if event != "stopped" else []
    seeders, leechers = counts(t)
    resp = {"complete": seeders, "incomplete": leechers, "interval": 1800, "min interval": 900}
    if (one("compact") or b"1") == b"1":
        resp["peers"] = b"".join(socket.inet_aton(p["ip"]) + struct.pack(">H", p["port"]) for _, p in others)
    else:
        resp["peers"] = [{"ip": p["ip"], "peer id": pid, "port": p["port"]} for pid, p in others]
    return resp


def scrape(q):
    hashes = q.get("info_hash") or list(TORRENTS)
    files = {}
    for h in hashes:
        t = TORRENTS.get(h)
        if t is not None:
            s, l = counts(t)
            files[h] = {"complete": s, "downloaded": t["downloaded"], "incomplete": l}
    return {"files": files}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlsplit(self.path)
        q = query(url.query)
        with LOCK:
            if url.path == "/announce":
                body = bencode(announce(q, self.client_address[0]))
            elif url.path == "/scrape":
                body = bencode(scrape(q))
            else:
                body = None
        if body is None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
PY
cat > /app/tracker/run.sh <<'SH'
#!/bin/bash
exec python3 /app/tracker/tracker.py
SH
chmod +x /app/tracker/run.sh
