#!/bin/bash
set -euo pipefail
cat > /app/dget <<'PY'
#!/usr/bin/env python3
"""dget USER PASSWORD URL...: GET with HTTP Digest authentication (RFC 7616, qop=auth)."""
import hashlib
import http.client
import os
import re
import sys
import urllib.parse

PARAM = re.compile(r'\s*([A-Za-z0-9_-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^,\s]*)\s*(?:,|$)')


def challenges(headers):
    out = []
    for name, value in headers:
        if name.lower() != "www-authenticate" or not value.strip().lower().startswith("digest "):
            continue
        params, rest = {}, value.strip()[7:]
        for m in PARAM.finditer(rest):
            v = m.group(2)
            if v.startswith('"'):
                v = re.sub(r"\\(.)", r"\1", v[1:-1])
            params[m.group(1).lower()] = v
        out.append(params)
    return out


def choose(chs):
    for c in chs:
        if c.get("algorithm", "MD5").upper() == "SHA-256":
            return c
    for c in chs:
        if c.get("algorithm", "MD5").upper() == "MD5":
            return c
    return None


def get(host, port, target, auth=None):
    conn = http.client.HTTPConnection(host, port, timeout=60)
    headers = {"Authorization": auth} if auth else {}
    conn.request("GET", target, headers=headers)
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r.status, r.getheaders(), body


class Digest:
    def __init__(self, user, password, ch):
        self.user, self.password, self.ch, self.nc = user, password, ch, 0
        self.alg = "SHA-256" if ch.get("algorithm", "MD5").upper() == "SHA-256" else "MD5"

    def header(self, target):
        h = (lambda s: hashlib.sha256(s.encode()).hexdigest()) if self.alg == "SHA-256" else \
            (lambda s: hashlib.md5(s.encode()).hexdigest())
        self.nc += 1
        nc, cnonce = f"{self.nc:08x}", os.urandom(8).hex()
        realm, nonce = self.ch.get("realm", ""), self.ch["nonce"]
        resp = h(f"{h(f'{self.user}:{realm}:{self.password}')}:{nonce}:{nc}:{cnonce}:auth:{h(f'GET:{target}')}")
        q = lambda v: '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        parts = [f"username={q(self.user)}", f"realm={q(realm)}", f"nonce={q(nonce)}", f"uri={q(target)}",
                 f"algorithm={self.alg}", "qop=auth", f"nc={nc}", f"cnonce={q(cnonce)}", f"response={q(resp)}"]
        if "opaque" in self.ch:
            parts.append(f"opaque={q(self.ch['opaque'])}")
        return "Digest " + ", ".join(parts)


def main():
    user, password, urls = sys.argv[1], sys.argv[2], sys.argv[3:]
    digest, ok = None, True
    for url in urls:
        u = urllib.parse.urlsplit(url)
        target = (u.path or "/") + (f"?{u.query}" if u.query else "")
        host, port = u.hostname, u.port or 80
        status, headers, body = get(host, port, target, digest.header(target) if digest else None)
        if status == 401:
            ch = choose(challenges(headers))
            if ch is not None and (digest is None or ch.get("stale", "").lower() == "true"):
                digest = Digest(user, password, ch)
                status, headers, body = get(host, port, target, digest.header(target))
                if status == 401:
                    ch2 = choose(challenges(headers))
                    if ch2 is not None and ch2.get("stale", "").lower() == "true":
                        digest = Digest(user, password, ch2)
                        status, headers, body = get(host, port, target, digest.header(target))
        print(status, hashlib.sha256(body).hexdigest())
        ok = ok and 200 <= status < 300
    sys.exit(0 if ok else 1)


main()
PY
chmod +x /app/dget
