#!/bin/bash
set -euo pipefail
mkdir -p /app/radius
cat > /app/radius/server.py <<'PY'
"""radiuslite: RADIUS authentication (PAP, CHAP, Message-Authenticator) and accounting on one UDP port."""
import hashlib
import hmac
import json
import os
import socket
import struct

PORT = int(os.environ.get("RADIUS_PORT", "1812"))
CLIENTS_FILE = os.environ.get("RADIUS_CLIENTS", "/etc/radiuslite/clients")
USERS_FILE = os.environ.get("RADIUS_USERS", "/etc/radiuslite/users.jsonl")
ATTR = {"Reply-Message": (18, "string"), "Class": (25, "string"), "Session-Timeout": (27, "integer"),
        "Idle-Timeout": (28, "integer"), "Framed-IP-Address": (8, "ipaddr"), "Filter-Id": (11, "string")}


def load():
    clients, users = {}, {}
    for line in open(CLIENTS_FILE, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            ip, secret = line.split(None, 1)
            clients[ip] = secret.encode()
    for line in open(USERS_FILE, encoding="utf-8"):
        if line.strip():
            u = json.loads(line)
            users[u["user"].encode()] = u
    return clients, users


CLIENTS, USERS = load()


def encode_attr(name, value):
    t, kind = ATTR[name]
    if kind == "string":
        v = value.encode()
    elif kind == "integer":
        v = struct.pack(">I", value)
    else:
        v = socket.inet_aton(value)
    return bytes([t, len(v) + 2]) + v


def parse(data):
    if len(data) < 20:
        return None
    code, ident, length = struct.unpack(">BBH", data[:4])
    if length < 20 or length > len(data) or length > 4096:
        return None
    data = data[:length]
    attrs, pos = [], 20
    while pos < length:
        if pos + 2 > length:
            return None
        t, n = data[pos], data[pos + 1]
        if n < 2 or pos + n > length:
            return None
        attrs.append((t, data[pos + 2:pos + n], pos))
        pos += n
    return code, ident, data, attrs


def unhide(secret, auth, hidden):
    if not hidden or len(hidden) % 16:
        return None
    out, prev = b"", auth
    for i in range(0, len(hidden), 16):
        block = hidden[i:i + 16]
        key = hashlib.md5(secret + prev).digest()
        out += bytes(a ^ b for a, b in zip(block, key))
        prev = block
    return out.rstrip(b"\0")


def response(code, ident, req_auth, attrs, secret, with_ma):
    body = b"".join(attrs)
    if with_ma:
        length = 20 + len(body) + 18
        zero = struct.pack(">BBH", code, ident, length) + req_auth + body + bytes([80, 18]) + b"\0" * 16
        body += bytes([80, 18]) + hmac.new(secret, zero, hashlib.md5).digest()
    head = struct.pack(">BBH", code, ident, 20 + len(body))
    auth = hashlib.md5(head + req_auth + body + secret).digest()
    return head + auth + body


def handle(data, ip):
    secret = CLIENTS.get(ip)
    p = parse(data)
    if secret is None or p is None:
        return None
    code, ident, data, attrs = p
    req_auth = data[4:20]
    if code == 4:  # Accounting-Request
        expect = hashlib.md5(data[:4] + b"\0" * 16 + data[20:] + secret).digest()
        if expect != req_auth:
            return None
        return response(5, ident, req_auth, [], secret, False)
    if code != 1:
        return None
    mas = [(v, pos) for t, v, pos in attrs if t == 80]
    if mas:
        v, pos = mas[0]
        if len(v) != 16:
            return None
        zeroed = data[:pos + 2] + b"\0" * 16 + data[pos + 18:]
        if not hmac.compare_digest(hmac.new(secret, zeroed, hashlib.md5).digest(), v):
            return None
    first = {}
    for t, v, _ in attrs:
        first.setdefault(t, v)
    user = USERS.get(first.get(1, b""))
    ok = False
    if user is not None:
        password = user["password"].encode()
        if 2 in first:
            ok = unhide(secret, req_auth, first[2]) == password
        elif 3 in first and len(first[3]) == 17:
            challenge = first.get(60, req_auth)
            ok = hashlib.md5(first[3][:1] + password + challenge).digest() == first[3][1:]
    if ok:
        reply = [encode_attr(n, v) for n, v in user.get("reply", [])]
        return response(2, ident, req_auth, reply, secret, bool(mas))
    return response(3, ident, req_auth, [], secret, bool(mas))


def main():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", PORT))
    while True:
        data, peer = s.recvfrom(65535)
        out = handle(data, peer[0])
        if out is not None:
            s.sendto(out, peer)


main()
PY
cat > /app/radius/run.sh <<'SH'
#!/bin/bash
exec python3 /app/radius/server.py
SH
chmod +x /app/radius/run.sh
