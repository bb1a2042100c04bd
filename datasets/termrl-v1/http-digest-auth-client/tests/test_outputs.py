"""A Digest-checking HTTP server runs here; users, realms, nonces and pages are generated here."""
import hashlib
import os
import random
import re
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

RNG = random.Random(7616)
TOOL = "/app/dget"
PARAM = re.compile(r'\s*([A-Za-z0-9_-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^,\s]*)\s*(?:,|$)')


def H(alg, s):
    return (hashlib.sha256 if alg == "SHA-256" else hashlib.md5)(s.encode()).hexdigest()


def q(v):
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Lab:
    def __init__(self, algs=("MD5", "SHA-256"), stale_after=None, explicit_md5=True):
        self.user, self.password = "op" + str(RNG.randrange(1000)), "p@ss w:" + str(RNG.randrange(10**6))
        self.realm = f'Lab "{RNG.randrange(99)}", floor=2'
        self.opaque = os.urandom(6).hex()
        self.algs, self.stale_after, self.explicit_md5 = algs, stale_after, explicit_md5
        self.nonces = {}          # nonce -> [next nc, uses]
        self.seen = []            # (path, params or None, verdict)
        self.pages = {f"/p{i}": os.urandom(RNG.randrange(10, 3000)) for i in range(6)}
        self.pages["/q?x=1&y=%20z"] = b"query page"
        lab = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_GET(self):
                lab.handle(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def new_nonce(self):
        n = os.urandom(12).hex()
        self.nonces[n] = [1, 0]
        return n

    def challenge(self, h, stale=False):
        nonce = self.new_nonce()
        h.send_response(401)
        for alg in self.algs:
            algp = f", algorithm={alg}" if alg != "MD5" or self.explicit_md5 else ""
            h.send_header("WWW-Authenticate", f'Digest realm={q(self.realm)}, qop="auth", nonce={q(nonce)}, '
                                              f'opaque={q(self.opaque)}{algp}' + (", stale=true" if stale else ""))
        body = b"authenticate"
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    def verdict(self, h, params):
        need = {"username", "realm", "nonce", "uri", "qop", "nc", "cnonce", "response", "opaque"}
        if not need <= set(params):
            return "missing " + ",".join(sorted(need - set(params)))
        alg = params.get("algorithm", "MD5")
        if alg not in self.algs or (alg == "MD5" and "SHA-256" in self.algs):
            return "weak or unknown algorithm"
        if params["opaque"] != self.opaque or params["realm"] != self.realm or params["username"] != self.user:
            return "opaque/realm/username"
        if params["uri"] != h.path or params["qop"] != "auth":
            return "uri/qop"
        state = self.nonces.get(params["nonce"])
        if state is None:
            return "unknown nonce"
        if params["nc"] != f"{state[0]:08x}":
            return f"nc {params['nc']} != {state[0]:08x}"
        ha1 = H(alg, f"{self.user}:{self.realm}:{self.password}")
        want = H(alg, f"{ha1}:{params['nonce']}:{params['nc']}:{params['cnonce']}:auth:{H(alg, 'GET:' + h.path)}")
        if params["response"] != want:
            return "bad response"
        if self.stale_after is not None and state[1] >= self.stale_after:
            return "stale"
        state[0] += 1
        state[1] += 1
        return "ok"

    def handle(self, h):
        auth = h.headers.get("Authorization")
        if h.path == "/open":
            self.seen.append((h.path, None, "open"))
            return self.reply(h, 200, b"open page")
        if not auth:
            self.seen.append((h.path, None, "none"))
            return self.challenge(h)
        params = {}
        if auth.lower().startswith("digest "):
            for m in PARAM.finditer(auth[7:]):
                v = m.group(2)
                params[m.group(1).lower()] = re.sub(r"\\(.)", r"\1", v[1:-1]) if v.startswith('"') else v
        v = self.verdict(h, params)
        self.seen.append((h.path, params, v))
        if v == "stale":
            return self.challenge(h, stale=True)
        if v != "ok":
            return self.challenge(h)
        if h.path == "/forbidden":
            return self.reply(h, 403, b"no")
        return self.reply(h, 200, self.pages.get(h.path, b"?"))

    def reply(self, h, status, body):
        h.send_response(status)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    def run(self, paths, password=None):
        assert os.access(TOOL, os.X_OK), f"{TOOL} is missing or not executable"
        p = subprocess.run([TOOL, self.user, password or self.password, *[self.base + x for x in paths]],
                           capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout.splitlines()


def line(status, body):
    return f"{status} {hashlib.sha256(body).hexdigest()}"


def test_sha256_preferred_and_nonce_reused():
    lab = Lab()
    paths = ["/p0", "/p1", "/q?x=1&y=%20z", "/p2"]
    code, out = lab.run(paths)
    assert [v for _, _, v in lab.seen if v not in ("ok", "none")] == [], lab.seen
    assert code == 0 and out == [line(200, lab.pages[p]) for p in paths]
    auths = [s for s in lab.seen if s[1]]
    assert len(lab.seen) == 5 and lab.seen[0][2] == "none", "one unauthenticated request, then credentials straight away"
    assert [a[1]["nc"] for a in auths] == ["00000001", "00000002", "00000003", "00000004"]
    assert {a[1]["algorithm"] for a in auths} == {"SHA-256"}
    assert len({a[1]["cnonce"] for a in auths}) == 4, "a fresh cnonce per request"


def test_md5_when_only_md5_is_offered():
    lab = Lab(algs=("MD5",), explicit_md5=False)
    code, out = lab.run(["/p3", "/p4"])
    assert code == 0 and out == [line(200, lab.pages["/p3"]), line(200, lab.pages["/p4"])], lab.seen


def test_stale_nonce_recovery():
    lab = Lab(stale_after=2)
    paths = ["/p0", "/p1", "/p2", "/p3", "/p4"]
    code, out = lab.run(paths)
    assert code == 0 and out == [line(200, lab.pages[p]) for p in paths], lab.seen
    verdicts = [v for _, _, v in lab.seen]
    assert verdicts == ["none", "ok", "ok", "stale", "ok", "ok", "stale", "ok"], verdicts
    auths = [s[1] for s in lab.seen if s[1]]
    assert [a["nc"] for a in auths] == ["00000001", "00000002", "00000003", "00000001", "00000002", "00000003",
                                        "00000001"]


def test_wrong_password_and_failures():
    lab = Lab()
    code, out = lab.run(["/p0", "/p1"], password="not-it")
    assert code == 1 and out == [line(401, b"authenticate"), line(401, b"authenticate")]
    assert sum(1 for s in lab.seen if s[1]) == 2, "a non-stale 401 after credentials is final (no retry loop)"
    lab = Lab()
    code, out = lab.run(["/open", "/p5", "/forbidden", "/p1"])
    assert code == 1 and out == [line(200, b"open page"), line(200, lab.pages["/p5"]), line(403, b"no"),
                                 line(200, lab.pages["/p1"])]
    assert [v for _, _, v in lab.seen] == ["open", "none", "ok", "ok", "ok"], lab.seen
