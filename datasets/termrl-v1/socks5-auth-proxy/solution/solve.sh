#!/bin/bash
set -euo pipefail
cat > /app/socks/socksd.py <<'PY'
"""SOCKS5 (RFC 1928) CONNECT proxy with RFC 1929 login; a thread per client, one per relay direction."""
import os
import socket
import struct
import sys
import threading

PORT = int(os.environ.get("SOCKS_PORT", "1080"))
USERS = None
if os.environ.get("SOCKS_USERS"):
    USERS = {}
    with open(os.environ["SOCKS_USERS"], encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if ":" in line:
                user, password = line.split(":", 1)
                USERS[user] = password
DENY = {int(p) for p in os.environ.get("SOCKS_DENY_PORTS", "").split(",") if p.strip()}
LOG = os.environ.get("SOCKS_LOG")
LOG_LOCK = threading.Lock()


def log(user, host, port, rep, up, down):
    if LOG:
        with LOG_LOCK, open(LOG, "a", encoding="utf-8") as f:
            f.write(f"{user} {host}:{port} {rep:02x} {up} {down}\n")


def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("client went away")
        buf += chunk
    return buf


def reply(s, rep, addr="0.0.0.0", port=0):
    s.sendall(b"\x05" + bytes([rep]) + b"\x00\x01" + socket.inet_aton(addr) + struct.pack("!H", port))


def pump(src, dst, counter, idx):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
            counter[idx] += len(data)
    except OSError:
        pass
    try:
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def handle(c):
    user = "-"
    try:
        ver, n = recv_exact(c, 2)
        methods = recv_exact(c, n)
        if ver != 5:
            return
        want = 2 if USERS is not None else 0
        if want not in methods:
            c.sendall(b"\x05\xff")
            return
        c.sendall(bytes([5, want]))
        if want == 2:
            _, ulen = recv_exact(c, 2)
            name = recv_exact(c, ulen).decode("utf-8", "replace")
            (plen,) = recv_exact(c, 1)
            password = recv_exact(c, plen).decode("utf-8", "replace")
            if USERS.get(name) != password:
                c.sendall(b"\x01\x01")
                return
            c.sendall(b"\x01\x00")
            user = name
        ver, cmd, _, atyp = recv_exact(c, 4)
        if atyp == 1:
            host = socket.inet_ntoa(recv_exact(c, 4))
        elif atyp == 3:
            (ln,) = recv_exact(c, 1)
            host = recv_exact(c, ln).decode("utf-8", "replace")
        elif atyp == 4:
            recv_exact(c, 16)
            port = struct.unpack("!H", recv_exact(c, 2))[0]
            reply(c, 8)
            log(user, "-", port, 8, 0, 0)
            return
        else:
            reply(c, 8)
            log(user, "-", 0, 8, 0, 0)
            return
        (port,) = struct.unpack("!H", recv_exact(c, 2))
        if cmd != 1:
            reply(c, 7)
            log(user, host, port, 7, 0, 0)
            return
        if port in DENY:
            reply(c, 2)
            log(user, host, port, 2, 0, 0)
            return
        try:
            infos = socket.getaddrinfo(host, port, socket.AF_INET, socket.SOCK_STREAM)
        except socket.gaierror:
            reply(c, 4)
            log(user, host, port, 4, 0, 0)
            return
        try:
            d = socket.create_connection(infos[0][4][:2], timeout=30)
            d.settimeout(None)
        except ConnectionRefusedError:
            reply(c, 5)
            log(user, host, port, 5, 0, 0)
            return
        except OSError:
            reply(c, 1)
            log(user, host, port, 1, 0, 0)
            return
        baddr, bport = d.getsockname()[:2]
        reply(c, 0, baddr, bport)
        counter = [0, 0]
        t = threading.Thread(target=pump, args=(d, c, counter, 1), daemon=True)
        t.start()
        pump(c, d, counter, 0)
        t.join()
        d.close()
        log(user, host, port, 0, counter[0], counter[1])
    except (ConnectionError, OSError, ValueError):
        pass
    finally:
        c.close()


def main():
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", PORT))
    srv.listen(128)
    while True:
        c, _ = srv.accept()
        threading.Thread(target=handle, args=(c,), daemon=True).start()


if __name__ == "__main__":
    main()
PY
cat > /app/socks/run.sh <<'SH'
#!/bin/bash
exec python3 "$(dirname "$(readlink -f "$0")")/socksd.py"
SH
chmod +x /app/socks/run.sh
