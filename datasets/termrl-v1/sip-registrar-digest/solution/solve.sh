#!/bin/bash
set -euo pipefail
mkdir -p /app/sip
cat > /app/sip/registrar.py <<'PY'
"""A SIP registrar (RFC 3261 REGISTER with digest authentication) over UDP."""
import hashlib
import os
import re
import secrets
import socket

PORT = int(os.environ.get("SIP_PORT", "5060"))
CONF = os.environ.get("SIP_CONF", "/etc/sip/registrar.conf")
COMPACT = {"m": "contact", "f": "from", "t": "to", "i": "call-id", "v": "via", "l": "content-length"}
DOMAIN, USERS = "", {}
for line in open(CONF, encoding="utf-8"):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    k, _, v = line.partition("=")
    k, v = k.strip(), v.strip()
    if k == "domain":
        DOMAIN = v
    elif k.startswith("user "):
        USERS[k[5:].strip()] = v
NONCES = set()
BINDINGS = {}  # aor -> list of [uri, expires, q, seq]
SEQ = [0]


def md5(s):
    return hashlib.md5(s.encode()).hexdigest()


def parse(data):
    text = data.decode("utf-8")
    head, _, _ = text.partition("\r\n\r\n")
    lines = head.split("\r\n")
    start = lines[0].split(" ")
    if len(start) != 3 or start[2] != "SIP/2.0":
        return None
    headers = []
    for line in lines[1:]:
        if line[:1] in (" ", "\t") and headers:
            headers[-1][1] += " " + line.strip()
            continue
        k, sep, v = line.partition(":")
        if not sep:
            return None
        k = k.strip().lower()
        headers.append([COMPACT.get(k, k), v.strip()])
    return start[0], start[1], headers


def split_commas(value):
    out, cur, depth, quote = [], "", 0, False
    for ch in value:
        if ch == '"':
            quote = not quote
        elif ch == "<" and not quote:
            depth += 1
        elif ch == ">" and not quote:
            depth -= 1
        if ch == "," and depth == 0 and not quote:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def get(headers, name):
    for k, v in headers:
        if k == name:
            return v
    return None


def aor_of(to):
    m = re.search(r"sip:([^@;>\s]+)@([^;>\s]+)", to or "")
    return (m.group(1), m.group(2).lower()) if m else None


def digest_params(value):
    if not value or not value.lower().startswith("digest "):
        return None
    return {k.lower(): (v1 if v1 is not None and v1 != "" or v2 is None else v2) for k, v1, v2 in
            ((m.group(1), m.group(2), m.group(3)) for m in re.finditer(r'(\w+)=(?:"([^"]*)"|([^,\s]+))', value[7:]))}


def response(code, reason, headers, extra=(), to_tag=True):
    out = ["SIP/2.0 %d %s" % (code, reason)]
    for k, v in headers:
        if k == "via":
            out += ["Via: " + x for x in split_commas(v)]
    out.append("From: " + (get(headers, "from") or ""))
    to = get(headers, "to") or ""
    if to_tag and ";tag=" not in to:
        to += ";tag=" + "reg" + md5(get(headers, "call-id") or "")[:8]
    out.append("To: " + to)
    out.append("Call-ID: " + (get(headers, "call-id") or ""))
    out.append("CSeq: " + (get(headers, "cseq") or ""))
    out += list(extra)
    out.append("Content-Length: 0")
    return ("\r\n".join(out) + "\r\n\r\n").encode()


def challenge(headers):
    nonce = secrets.token_hex(16)
    NONCES.add(nonce)
    return response(401, "Unauthorized", headers,
                    ['WWW-Authenticate: Digest realm="%s", nonce="%s", algorithm=MD5, qop="auth"' % (DOMAIN, nonce)])


def register(uri, headers):
    aor = aor_of(get(headers, "to"))
    if aor is None or aor[1] != DOMAIN.lower():
        return response(404, "Not Found", headers)
    auth = digest_params(get(headers, "authorization"))
    if auth is None:
        return challenge(headers)
    user = auth.get("username")
    if user not in USERS or auth.get("realm") != DOMAIN or auth.get("nonce") not in NONCES:
        return challenge(headers)
    ha1 = md5("%s:%s:%s" % (user, DOMAIN, USERS[user]))
    ha2 = md5("REGISTER:%s" % auth.get("uri", ""))
    if auth.get("qop") == "auth":
        want = md5(":".join([ha1, auth["nonce"], auth.get("nc", ""), auth.get("cnonce", ""), "auth", ha2]))
    else:
        want = md5(":".join([ha1, auth["nonce"], ha2]))
    if auth.get("response") != want:
        return challenge(headers)
    if user != aor[0]:
        return response(403, "Forbidden", headers)
    key = "%s@%s" % aor
    contacts = [c for k, v in headers if k == "contact" for c in split_commas(v)]
    default = get(headers, "expires")
    default = int(default) if default and default.isdigit() else 3600
    current = BINDINGS.setdefault(key, [])
    if contacts == ["*"]:
        if default != 0 or get(headers, "expires") is None:
            return response(400, "Bad Request", headers)
        current.clear()
        contacts = []
    if "*" in contacts:
        return response(400, "Bad Request", headers)
    for c in contacts:
        m = re.match(r"\s*(?:\"[^\"]*\"\s*)?<([^>]+)>(.*)$", c) or re.match(r"\s*([^;\s]+)(.*)$", c)
        uri_c, params = m.group(1), m.group(2)
        e = re.search(r";\s*expires=(\d+)", params, re.I)
        q = re.search(r";\s*q=([0-9.]+)", params, re.I)
        expires = int(e.group(1)) if e else default
        qv = float(q.group(1)) if q else 1.0
        existing = [b for b in current if b[0] == uri_c]
        if expires == 0:
            for b in existing:
                current.remove(b)
        elif existing:
            existing[0][1], existing[0][2] = expires, qv
        else:
            SEQ[0] += 1
            current.append([uri_c, expires, qv, SEQ[0]])
    ordered = sorted(current, key=lambda b: (-b[2], b[3]))
    extra = ["Contact: <%s>;expires=%d;q=%s" % (b[0], b[1], ("%.3f" % b[2]).rstrip("0").rstrip(".") if b[2] != int(b[2]) else "%d.0" % b[2]) for b in ordered]
    return response(200, "OK", headers, extra)


def handle(data):
    try:
        p = parse(data)
    except UnicodeDecodeError:
        return None
    if p is None:
        return None
    method, uri, headers = p
    for h in ("via", "from", "to", "call-id", "cseq"):
        if get(headers, h) is None:
            return None
    cseq = get(headers, "cseq").split()
    if len(cseq) != 2 or not cseq[0].isdigit() or cseq[1] != method:
        return response(400, "Bad Request", headers)
    if method == "REGISTER":
        return register(uri, headers)
    if method == "OPTIONS":
        return response(200, "OK", headers, ["Allow: REGISTER, OPTIONS"])
    return response(405, "Method Not Allowed", headers, ["Allow: REGISTER, OPTIONS"])


def main():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", PORT))
    while True:
        data, peer = s.recvfrom(65535)
        out = handle(data)
        if out is not None:
            s.sendto(out, peer)


main()
PY
cat > /app/sip/run.sh <<'SH'
#!/bin/bash
exec python3 /app/sip/registrar.py
SH
chmod +x /app/sip/run.sh
