"""Peers written here announce from several loopback addresses; torrents, peer ids and event sequences are generated per run."""
import hashlib
import http.client
import os
import random
import signal
import socket
import struct
import subprocess
import tempfile
import time
from urllib.parse import quote_from_bytes

import pytest

TIMEOUT = 120  # hang guard for socket reads only
RNG = random.Random(6881)
DIR = tempfile.mkdtemp(prefix="tracker")
HASHES = [hashlib.sha1(b"torrent-%d-%d" % (i, RNG.randrange(10 ** 6))).digest() for i in range(4)]
UNREGISTERED = hashlib.sha1(b"not listed").digest()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()


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


@pytest.fixture(scope="module", autouse=True)
def tracker():
    with open(f"{DIR}/torrents.txt", "w") as f:
        f.write("# generated\n" + "".join(h.hex() + "\n" for h in HASHES) + "\n")
    proc = subprocess.Popen(["bash", "/app/tracker/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, TRACKER_PORT=str(PORT), TRACKER_TORRENTS=f"{DIR}/torrents.txt"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 240  # hang guard only
    while time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=5).close()
            break
        except OSError:
            time.sleep(0.2)
    yield
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


class Model:
    def __init__(self):
        self.t = {h: {"peers": {}, "downloaded": 0, "done": set(), "order": 0} for h in HASHES}

    def counts(self, h):
        s = sum(1 for p in self.t[h]["peers"].values() if p["left"] == 0)
        return s, len(self.t[h]["peers"]) - s

    def announce(self, h, pid, ip, port, left, event="", numwant=None, compact=True):
        if h not in self.t:
            return {"failure reason": "unregistered torrent"}
        t = self.t[h]
        if event == "stopped":
            t["peers"].pop(pid, None)
        else:
            old = t["peers"].get(pid)
            if old is None:
                t["order"] += 1
            t["peers"][pid] = {"ip": ip, "port": port, "left": left, "order": old["order"] if old else t["order"]}
            if event == "completed" and pid not in t["done"]:
                t["done"].add(pid)
                t["downloaded"] += 1
        n = 50 if numwant is None else max(0, min(numwant, 200))
        others = sorted(((k, p) for k, p in t["peers"].items() if k != pid), key=lambda kv: kv[1]["order"])
        if left == 0:
            others = [(k, p) for k, p in others if p["left"] != 0]
        others = [] if event == "stopped" else others[:n]
        s, l = self.counts(h)
        r = {"complete": s, "incomplete": l, "interval": 1800, "min interval": 900}
        if compact:
            r["peers"] = b"".join(socket.inet_aton(p["ip"]) + struct.pack(">H", p["port"]) for _, p in others)
        else:
            r["peers"] = [{"ip": p["ip"], "peer id": k, "port": p["port"]} for k, p in others]
        return r


M = Model()


def get(path, src="127.0.0.1"):
    c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=TIMEOUT, source_address=(src, 0))
    c.request("GET", path)
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, body


class Peer:
    def __init__(self, ip, port=None):
        self.ip, self.port = ip, port or RNG.randrange(1024, 65535)
        self.pid = b"-TR2940-" + bytes(RNG.choice(b"abcdefghijklmnopqrstuvwxyz0123456789%&+= \x00\xff") for _ in range(12))

    def announce(self, h, left, event="", numwant=None, compact=None, extra=""):
        params = [("info_hash", h), ("peer_id", self.pid), ("port", str(self.port).encode()),
                  ("uploaded", b"0"), ("downloaded", b"0"), ("left", str(left).encode())]
        if event:
            params.append(("event", event.encode()))
        if numwant is not None:
            params.append(("numwant", str(numwant).encode()))
        if compact is not None:
            params.append(("compact", b"1" if compact else b"0"))
        RNG.shuffle(params)
        qs = "&".join(k + "=" + quote_from_bytes(v, safe="") for k, v in params) + extra
        status, body = get("/announce?" + qs, self.ip)
        want = bencode(M.announce(h, self.pid, self.ip, self.port, left, event, numwant, compact is not False))
        assert status == 200 and body == want, f"announce {event or '-'} left={left}: got {body[:200]!r}, expected {want[:200]!r}"


def test_swarm_lifecycle():
    h = HASHES[0]
    peers = [Peer("127.0.0.%d" % (2 + i)) for i in range(12)]
    for i, p in enumerate(peers):
        p.announce(h, 0 if i % 4 == 0 else RNG.randrange(1, 10 ** 9), "started")
    for _ in range(40):
        p = RNG.choice(peers)
        kind = RNG.random()
        if kind < 0.15:
            p.announce(h, 0, "completed")
        elif kind < 0.25:
            p.announce(h, RNG.randrange(10 ** 6), "stopped")
        elif kind < 0.35:
            p.announce(h, RNG.randrange(10 ** 6), "started", numwant=RNG.choice([0, 3, -5, 500]))
        else:
            p.announce(h, RNG.choice([0, RNG.randrange(1, 10 ** 6)]), compact=RNG.choice([None, True, False]),
                       numwant=RNG.choice([None, 5]))


def test_completed_counts_once_and_seeders_get_leechers():
    h = HASHES[1]
    a, b, c = Peer("127.0.1.1"), Peer("127.0.1.2"), Peer("127.0.1.3")
    a.announce(h, 500, "started")
    b.announce(h, 0, "started")
    c.announce(h, 0, "started")
    a.announce(h, 0, "completed")
    a.announce(h, 0, "completed")  # counted once
    a.announce(h, 0, "stopped")
    a.announce(h, 0, "started")
    a.announce(h, 0, "completed")
    d = Peer("127.0.1.4")
    d.announce(h, 10, "started", compact=False)
    b.announce(h, 0, compact=False)  # a seeder is only given leechers


def test_scrape():
    h0, h1 = HASHES[0], HASHES[1]
    for hashes in ([h0], [h1, h0], [h0, UNREGISTERED], []):
        qs = "&".join("info_hash=" + quote_from_bytes(h, safe="") for h in hashes)
        status, body = get("/scrape" + ("?" + qs if qs else ""))
        sel = [h for h in (hashes or HASHES) if h in M.t]
        want = {"files": {h: {"complete": M.counts(h)[0], "downloaded": M.t[h]["downloaded"],
                              "incomplete": M.counts(h)[1]} for h in sel}}
        assert status == 200 and body == bencode(want), f"scrape {len(hashes)} hashes: {body[:200]!r}"


def test_failures():
    p = Peer("127.0.2.1")
    base = "peer_id=" + quote_from_bytes(p.pid, safe="") + "&port=6881&uploaded=0&downloaded=0&left=5"
    h = "info_hash=" + quote_from_bytes(HASHES[2], safe="")
    cases = [(base, "invalid info_hash"), ("info_hash=" + quote_from_bytes(HASHES[2][:19], safe="") + "&" + base, "invalid info_hash"),
             (h + "&peer_id=short&port=6881&left=5", "invalid peer_id"),
             (h + "&" + base.replace("port=6881", "port=0"), "invalid parameters"),
             (h + "&" + base.replace("port=6881", "port=70000"), "invalid parameters"),
             (h + "&" + base.replace("left=5", "left=-1"), "invalid parameters"),
             (h + "&" + base.replace("left=5", "left=lots"), "invalid parameters"),
             ("info_hash=" + quote_from_bytes(UNREGISTERED, safe="") + "&" + base, "unregistered torrent")]
    for qs, reason in cases:
        status, body = get("/announce?" + qs, p.ip)
        assert status == 200 and body == bencode({"failure reason": reason}), f"{qs}: {body!r}"
    status, _ = get("/nothing-here")
    assert status == 404
    status, body = get("/scrape?info_hash=" + quote_from_bytes(HASHES[2], safe=""))
    assert body == bencode({"files": {HASHES[2]: {"complete": 0, "downloaded": 0, "incomplete": 0}}}), \
        "failed announces add no peers"


def test_many_torrents_and_ports():
    peers = [Peer("127.0.3.%d" % (1 + i % 4), port=1000 + i) for i in range(30)]
    for p in peers:
        p.announce(HASHES[3], RNG.choice([0, 1, 99]), "started", numwant=RNG.choice([None, 10, 200]))
    for p in peers[::3]:
        p.announce(HASHES[3], 0, "completed", numwant=7)
    for p in peers:
        p.announce(HASHES[3], 1, compact=False)
