#!/bin/bash
set -euo pipefail
mkdir -p /app/identd
cat > /app/identd/identd.py <<'PY'
"""identd (RFC 1413) answering from /proc/net/tcp and /proc/net/tcp6."""
import os
import pwd
import re
import socket
import threading

PORT = int(os.environ.get("IDENT_PORT", "113"))
HIDE = os.environ.get("IDENT_HIDE", "/etc/identd.hide")


def hidden():
    try:
        return {l.strip() for l in open(HIDE, encoding="utf-8") if l.strip() and not l.startswith("#")}
    except OSError:
        return set()


def addr4(hexaddr):
    return socket.inet_ntoa(bytes.fromhex(hexaddr)[::-1])


def addr6(hexaddr):
    raw = bytes.fromhex(hexaddr)
    b = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
    if b[:12] == b"\0" * 10 + b"\xff\xff":
        return socket.inet_ntoa(b[12:])
    return socket.inet_ntop(socket.AF_INET6, b)


def connections():
    for path, conv in (("/proc/net/tcp", addr4), ("/proc/net/tcp6", addr6)):
        try:
            lines = open(path).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if f[3] != "01":
                continue
            la, lp = f[1].split(":")
            ra, rp = f[2].split(":")
            yield conv(la), int(lp, 16), conv(ra), int(rp, 16), int(f[7])


def lookup(lport, rport, client_ip):
    for la, lp, ra, rp, uid in connections():
        if lp == lport and rp == rport and ra == client_ip:
            return uid
    return None


def answer(line, client_ip):
    m = re.fullmatch(r"\s*(\d{1,5})\s*,\s*(\d{1,5})\s*", line)
    if not m:
        return None
    a, b = int(m.group(1)), int(m.group(2))
    prefix = "%d , %d" % (a, b)
    if not (1 <= a <= 65535 and 1 <= b <= 65535):
        return prefix + " : ERROR : INVALID-PORT"
    uid = lookup(a, b, client_ip)
    if uid is None:
        return prefix + " : ERROR : NO-USER"
    try:
        name = pwd.getpwuid(uid).pw_name
    except KeyError:
        name = str(uid)
    if name in hidden():
        return prefix + " : ERROR : HIDDEN-USER"
    return prefix + " : USERID : UNIX : " + name


def serve(conn, peer):
    f = conn.makefile("rb")
    try:
        while True:
            raw = f.readline(1001)
            if not raw:
                return
            line = raw.decode("latin-1").rstrip("\r\n")
            out = answer(line, peer[0])
            if out is None:
                out = "0 , 0 : ERROR : INVALID-PORT"
            conn.sendall(out.encode() + b"\r\n")
    except OSError:
        pass
    finally:
        conn.close()


def main():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", PORT))
    s.listen(64)
    while True:
        conn, peer = s.accept()
        threading.Thread(target=serve, args=(conn, peer), daemon=True).start()


main()
PY
cat > /app/identd/run.sh <<'SH'
#!/bin/bash
exec python3 /app/identd/identd.py
SH
chmod +x /app/identd/run.sh
