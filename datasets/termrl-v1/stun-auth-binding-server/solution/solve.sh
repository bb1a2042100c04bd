#!/bin/bash
set -euo pipefail
mkdir -p /app/stun
cat > /app/stun/server.py <<'PY'
"""STUN (RFC 5389) Binding server with the long-term credential mechanism, over UDP and TCP."""
import binascii
import hashlib
import hmac
import os
import secrets
import socket
import struct
import threading

CONF = os.environ.get("STUN_CONF", "/etc/stun/stun.conf")
PORT = int(os.environ.get("STUN_PORT", "3478"))
COOKIE = 0x2112A442
USERNAME, MI, ERROR_CODE, UNKNOWN, REALM, NONCE, XMA, FINGERPRINT = 0x6, 0x8, 0x9, 0xA, 0x14, 0x15, 0x20, 0x8028
REASONS = {400: b"Bad Request", 401: b"Unauthorized", 420: b"Unknown Attribute", 438: b"Stale Nonce"}


def load():
    realm, users = b"", {}
    for line in open(CONF, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if key == "realm":
            realm = value.encode()
        elif key.startswith("user "):
            users[key[5:].strip().encode()] = value.encode()
    return realm, users


REALM_V, USERS = load()
NONCES = set()
LOCK = threading.Lock()


class Drop(Exception):
    pass


def attr(t, v):
    return struct.pack(">HH", t, len(v)) + v + b"\0" * (-len(v) % 4)


def parse(msg):
    if len(msg) < 20:
        raise Drop()
    mtype, length, cookie = struct.unpack(">HHI", msg[:8])
    if mtype & 0xC000 or cookie != COOKIE or length % 4 or len(msg) != 20 + length:
        raise Drop()
    attrs, pos = [], 20
    while pos < len(msg):
        if pos + 4 > len(msg):
            raise Drop()
        t, n = struct.unpack(">HH", msg[pos:pos + 4])
        if pos + 4 + n > len(msg):
            raise Drop()
        attrs.append((t, msg[pos + 4:pos + 4 + n], pos))
        pos += 4 + n + (-n % 4)
    return mtype, attrs


def fingerprint_ok(msg, attrs):
    t, v, pos = attrs[-1]
    return len(v) == 4 and struct.unpack(">I", v)[0] == binascii.crc32(msg[:pos]) ^ 0x5354554E


def build(mtype, tid, attrs, key=None, fingerprint=False):
    body = b"".join(attr(t, v) for t, v in attrs)
    if key is not None:
        head = struct.pack(">HHI", mtype, len(body) + 24, COOKIE) + tid
        body += attr(MI, hmac.new(key, head + body, hashlib.sha1).digest())
    if fingerprint:
        head = struct.pack(">HHI", mtype, len(body) + 8, COOKIE) + tid
        body += attr(FINGERPRINT, struct.pack(">I", binascii.crc32(head + body) ^ 0x5354554E))
    return struct.pack(">HHI", mtype, len(body), COOKIE) + tid + body


def error(code, tid, extra=(), key=None, fp=False):
    ec = struct.pack(">HBB", 0, code // 100, code % 100) + REASONS[code]
    return build(0x0111, tid, [(ERROR_CODE, ec)] + list(extra), key, fp)


def new_nonce():
    n = secrets.token_hex(12).encode()
    with LOCK:
        NONCES.add(n)
    return n


def challenge(code, tid, fp):
    return error(code, tid, [(REALM, REALM_V), (NONCE, new_nonce())], fp=fp)


def handle(msg, peer):
    mtype, attrs = parse(msg)
    tid = msg[8:20]
    fp = bool(attrs) and attrs[-1][0] == FINGERPRINT
    if fp and not fingerprint_ok(msg, attrs):
        return None
    if any(t == FINGERPRINT for t, _, _ in attrs[:-1]):
        return None
    if mtype != 0x0001:
        return None  # only Binding requests are answered
    # attributes after MESSAGE-INTEGRITY (other than FINGERPRINT) are ignored
    seen = []
    for t, v, pos in attrs:
        seen.append((t, v, pos))
        if t == MI:
            break
    got = {t: v for t, v, _ in seen}
    if MI not in got:
        return challenge(401, tid, fp)
    if USERNAME not in got or REALM not in got or NONCE not in got:
        return error(400, tid, fp=fp)
    user, password = got[USERNAME], USERS.get(got[USERNAME])
    if password is None:
        return challenge(401, tid, fp)
    key = hashlib.md5(user + b":" + got[REALM] + b":" + password).digest()
    mi_pos = [pos for t, _, pos in seen if t == MI][0]
    head = msg[:2] + struct.pack(">H", mi_pos + 24 - 20) + msg[4:20]
    want = hmac.new(key, head + msg[20:mi_pos], hashlib.sha1).digest()
    if got[REALM] != REALM_V or not hmac.compare_digest(want, got[MI]):
        return challenge(401, tid, fp)
    with LOCK:
        known = got[NONCE] in NONCES
    if not known:
        return challenge(438, tid, fp)
    unknown = []
    for t, _, _ in seen:
        if t < 0x8000 and t not in (USERNAME, MI, REALM, NONCE) and t not in unknown:
            unknown.append(t)
    if unknown:
        return error(420, tid, [(UNKNOWN, b"".join(struct.pack(">H", t) for t in unknown))], key, fp)
    host, port = peer[:2]
    addr = struct.unpack(">I", socket.inet_aton(host))[0]
    xma = struct.pack(">BBHI", 0, 1, port ^ (COOKIE >> 16), addr ^ COOKIE)
    return build(0x0101, tid, [(XMA, xma)], key, fp)


def udp_loop():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", PORT))
    while True:
        msg, peer = s.recvfrom(65535)
        try:
            out = handle(msg, peer)
        except Drop:
            continue
        if out is not None:
            s.sendto(out, peer)


def tcp_client(conn, peer):
    buf = b""
    try:
        while True:
            while len(buf) < 20 or len(buf) < 20 + struct.unpack(">H", buf[2:4])[0]:
                d = conn.recv(65536)
                if not d:
                    return
                buf += d
            n = 20 + struct.unpack(">H", buf[2:4])[0]
            msg, buf = buf[:n], buf[n:]
            out = handle(msg, peer)
            if out is not None:
                conn.sendall(out)
    except (Drop, OSError):
        pass
    finally:
        conn.close()


def tcp_loop():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", PORT))
    s.listen(64)
    while True:
        conn, peer = s.accept()
        threading.Thread(target=tcp_client, args=(conn, peer), daemon=True).start()


threading.Thread(target=tcp_loop, daemon=True).start()
udp_loop()
PY
cat > /app/stun/run.sh <<'SH'
#!/bin/bash
exec python3 /app/stun/server.py
SH
chmod +x /app/stun/run.sh
