#!/bin/bash
set -euo pipefail
mkdir -p /app/knock
cat > /app/knock/knock.py <<'PY'
"""Port-knocking gate: per-address progress over a port sequence, single-use grants for the protected port."""
import json
import os
import socket
import threading

CONF = json.load(open(os.environ.get("KNOCK_CONFIG", "/etc/knock/knock.json")))
SEQ, DECOYS, PROTECTED = [int(p) for p in CONF["sequence"]], [int(p) for p in CONF["decoys"]], int(CONF["protected"])
PROGRESS, LOCK = {}, threading.Lock()


def knock(port, ip):
    with LOCK:
        k = PROGRESS.get(ip, 0)
        if k < len(SEQ) and port == SEQ[k]:
            k += 1
        elif port == SEQ[0]:
            k = 1
        else:
            k = 0
        PROGRESS[ip] = k
    return k


def echo(conn, ip):
    with conn:
        f = conn.makefile("rwb")
        f.write(f"OPEN {ip}\n".encode())
        f.flush()
        for line in f:
            f.write(line)
            f.flush()


def serve(port):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port))
    s.listen(64)
    while True:
        conn, (ip, _) = s.accept()
        if port == PROTECTED:
            with LOCK:
                granted = PROGRESS.get(ip, 0) == len(SEQ)
                PROGRESS[ip] = 0
            if granted:
                threading.Thread(target=echo, args=(conn, ip), daemon=True).start()
            else:
                with conn:
                    conn.sendall(b"DENIED\n")
        else:
            k = knock(port, ip)
            with conn:
                conn.sendall(f"KNOCK {k}/{len(SEQ)}\n".encode())


def main():
    ports = sorted(set(SEQ) | set(DECOYS) | {PROTECTED})
    threads = [threading.Thread(target=serve, args=(p,), daemon=True) for p in ports]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


main()
PY
cat > /app/knock/run.sh <<'SH'
#!/bin/bash
exec python3 /app/knock/knock.py
SH
chmod +x /app/knock/run.sh
